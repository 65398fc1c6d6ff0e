import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { MediaTools } from '../media/media-tools';
import { RenditionError } from '../media/rendition-check';
import { ASSET_PROCESSING, AssetProcessing, renditionsFailedWarning } from './asset-processing';
import { IngestPhase, RunState } from './ingest-phase';
import { InputFiles } from './input-files';
import { InputError, JobContext, PIPELINE_SETTINGS, PipelineOutcome, PipelineSettings } from './job-context';
import { LadderPhase } from './ladder-phase';

export { SOURCE_VARIANT } from './ingest-phase';

/**
 * One attempt at one phase of one asset: ingest spec, then the ingest phase (input → probe → RecordProbe
 * → for a standard input the checked `source` rendition and MarkReady) or the ladder phase (encoded
 * renditions, checked → master → MarkReady if not yet). A problem of the input (unreadable, incomplete,
 * no usable rendition) ends in MarkErrored{invalid_input}; on an asset that already plays it ends the
 * job with a video.asset.warning instead, the asset staying ready. Anything else throws, and the worker
 * tries again later.
 */
@Injectable()
export class TranscodePipeline {
  private readonly ingest: IngestPhase;
  private readonly ladder: LadderPhase;

  constructor(
    @Inject(ASSET_PROCESSING) private readonly assets: AssetProcessing,
    @Inject(OBJECT_STORE) store: ObjectStore,
    @Inject(MediaTools) media: Pick<MediaTools, 'get'>,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
    @Inject(PIPELINE_SETTINGS) settings: PipelineSettings,
  ) {
    const inputs = new InputFiles(store, config);
    this.ingest = new IngestPhase(assets, store, inputs, media, settings);
    this.ladder = new LadderPhase(assets, store, inputs, media, settings);
  }

  async run(ctx: JobContext): Promise<PipelineOutcome> {
    ctx.signal.throwIfAborted();
    const spec = await this.assets.getIngestSpec(ctx.assetId);
    if (!spec) return { status: 'cancelled' };
    if (spec.status === 'errored') return { status: 'errored', error: 'The asset was already errored.' };
    const state: RunState = { ready: spec.status === 'ready' };
    try {
      return ctx.phase === 'ingest' ? await this.ingest.run(ctx, spec, state) : await this.ladder.run(ctx, spec, state);
    } catch (err) {
      const messages = inputProblemOf(err);
      if (!messages || ctx.signal.aborted) throw err;
      await ctx.checkpoint();
      const error = messages.join(' ');
      // An asset that plays (from its source rendition) stays ready: it only gets a warning.
      if (state.ready) await this.assets.reportWarning(ctx.assetId, renditionsFailedWarning(error));
      else await this.assets.markErrored(ctx.assetId, { type: 'invalid_input', messages });
      return { status: 'errored', error };
    }
  }
}

/** What the asset's errors say when `err` is a problem of the input itself (no retry can help); undefined otherwise. */
function inputProblemOf(err: unknown): string[] | undefined {
  if (err instanceof InputError) return err.messages;
  if (err instanceof RenditionError) return [err.userMessage];
  return undefined;
}
