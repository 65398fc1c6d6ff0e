import { codecsOf, VariantStream } from '@platform/media';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { assets } from '@platform/proto';
import { ObjectStore } from '@platform/storage';
import { buildRemuxArgs, variantFolder } from '../media/ffmpeg-args';
import { describeVariant, KnownVariantFields } from '../media/hls-variant';
import { frameRateOf, interpretProbe, primaryVideoStream, rotationOf } from '../media/interpret-probe';
import { MediaToolkit, MediaTools } from '../media/media-tools';
import { FfprobeOutput, FfprobeStream, MaxResolutionTier, ProbedAsset } from '../media/probe.types';
import { expectedRenditionSeconds, RenditionError } from '../media/rendition-check';
import { exceedsTier } from '../media/resolution';
import { AssetProcessing } from './asset-processing';
import { describeNormalization, measureAudioNormalization } from './audio-normalization';
import { HlsPublisher } from './hls-publisher';
import { InputFiles } from './input-files';
import { InputError, JobContext, PipelineOutcome, PipelineSettings } from './job-context';
import { probeInput, scanKeyframes } from './probe-input';
import { toRecordProbeRequest } from './record-probe.mapper';
import { SOURCE_VARIANT } from './source-variant';
import { StepTimer } from './step-timer';
import { WatermarkInput } from './watermark-input';

export { SOURCE_VARIANT };

const TIERS: readonly MaxResolutionTier[] = ['1080p', '1440p', '2160p'];

export function maxResolutionTierOf(spec: assets.IngestSpec): MaxResolutionTier {
  return TIERS.find((t) => t === spec.max_resolution_tier) ?? '1080p';
}

/** What the phases of one run share: whether the asset plays already (it then stays ready whatever fails). */
export interface RunState {
  ready: boolean;
}

/**
 * The ingest phase (an ingest slot): watermark image (checked) → input → probe → RecordProbe → for a
 * standard input, the stream-copied `source` rendition (its audio normalized with `normalize_audio`),
 * checked, stored and listed, and MarkReady: the asset plays within seconds. Then the input (and the
 * watermark image) are kept for the ladder phase, which an encode slot of any worker runs. A watermarked
 * asset has no `source` rendition (its mark must be burnt in): it plays when its ladder is done, as test
 * assets and non-standard inputs do.
 */
export class IngestPhase {
  private readonly logger = new Logger('TranscodePipeline');
  private readonly watermark: WatermarkInput;

  constructor(
    private readonly assets: AssetProcessing,
    private readonly store: ObjectStore,
    private readonly inputs: InputFiles,
    private readonly media: Pick<MediaTools, 'get'>,
    private readonly settings: PipelineSettings,
  ) {
    this.watermark = new WatermarkInput(inputs);
  }

  async run(ctx: JobContext, spec: assets.IngestSpec, state: RunState): Promise<PipelineOutcome> {
    // Ingested before (a redone phase after MarkReady): the ladder reads the asset's input itself.
    if (spec.status === 'ready') return { status: 'ladder', inputKey: null };
    const source = spec.input[0];
    const toolkit = await this.media.get();
    const timer = new StepTimer();
    // The small image first: a bad one errors the asset before a large input is downloaded.
    const watermarked = (await this.watermark.prepare(ctx, spec, toolkit.runner, 'ingest')).length > 0;
    if (watermarked) timer.mark('watermark image');
    // No extension from the URL: ffprobe would trust `.txt` and read text as a `tty` video.
    const input = join(ctx.workDir, 'input');
    timer.mark(await this.inputs.fetchInput(spec, input, { ...ctx, toolkit }));

    const run = { signal: ctx.signal, onSpawn: (pid: number) => ctx.onChild(pid) };
    const probe = await probeInput(toolkit.runner, input, run);
    timer.mark('probe');
    const maxResolutionTier = maxResolutionTierOf(spec);
    const first = interpretProbe(probe, { maxResolutionTier });
    if (!first.ok) throw new InputError(first.error.messages);

    const video = primaryVideoStream(probe);
    // Not a copy of what must be changed: a rotated picture, one above the tier, or one to watermark.
    const copyable = !video || (rotationOf(video) === 0 && !exceedsTier(video.width ?? 0, video.height ?? 0, maxResolutionTier));
    const remuxable = first.asset.standard && !spec.test && !watermarked && copyable;
    const normalize = spec.normalize_audio && first.asset.hasAudio;
    // The packet scan (GOP rules) and the remux both read the whole file: run them side by side. A clip's
    // GOPs are its source's, with short re-encoded ones at its edges by design: the GOP rules are not for it.
    const [keyframes, remuxed] = await settleBoth(
      video && !spec.clip ? scanKeyframes(toolkit.runner, input, run) : Promise.resolve(undefined),
      remuxable ? this.remux(toolkit, ctx, input, first.asset, sourceFields(probe), normalize ? probe : undefined) : Promise.resolve(undefined),
    );
    timer.mark([video && !spec.clip ? 'key-frame scan' : '', remuxable ? 'remux' : ''].filter(Boolean).join(' + ') || 'checks');
    const result = interpretProbe(probe, { maxResolutionTier, keyframes });
    if (!result.ok) throw new InputError(result.error.messages);
    const probed = result.asset;
    await this.assets.recordProbe(toRecordProbeRequest(ctx.assetId, probed, spec.test));
    timer.mark('record probe');

    if (remuxed && probed.standard) {
      const publisher = new HlsPublisher(this.store, ctx.assetId, this.settings.uploadConcurrency);
      await publisher.putVariant(remuxed.folder, SOURCE_VARIANT, ctx.signal);
      timer.mark('store source');
      await ctx.checkpoint();
      await publisher.putMaster([remuxed.stream]);
      await this.assets.markReady(ctx.assetId);
      state.ready = true;
      await ctx.markPlayable();
      timer.mark('master + ready');
      this.logger.log(`asset ${ctx.assetId}: playable from its source rendition in ${timer.summary()}`);
    }
    const inputKey = source?.url ? await this.inputs.keep(ctx.assetId, input) : null;
    if (inputKey) timer.mark('keep input');
    this.logger.log(`asset ${ctx.assetId}: ingested in ${timer.summary()}; the ladder follows`);
    return { status: 'ladder', inputKey };
  }

  /**
   * Stream copy into the `source` variant, checked; undefined (the ladder alone then) if ffmpeg cannot
   * make it or it is unusable. A source that plays shorter than the input declares means the input is
   * incomplete: that RenditionError goes through (the asset errors). With `normalizeFrom` (the input's
   * probe, for `normalize_audio`) the audio is measured first and re-encoded normalized; the video is copied.
   */
  private async remux(
    toolkit: MediaToolkit,
    ctx: JobContext,
    input: string,
    probed: ProbedAsset,
    known: KnownVariantFields,
    normalizeFrom?: FfprobeOutput,
  ): Promise<{ folder: string; stream: VariantStream } | undefined> {
    const outputDir = join(ctx.workDir, 'remux');
    const legacyHlsMuxer = toolkit.features.legacyHlsMuxer;
    const folder = join(outputDir, variantFolder(0, SOURCE_VARIANT, { legacyHlsMuxer }));
    const options = { signal: ctx.signal, onSpawn: (pid: number) => ctx.onChild(pid) };
    try {
      const normalization = normalizeFrom ? await measureAudioNormalization(toolkit.runner, input, normalizeFrom, { ...options, test: false }) : undefined;
      if (normalization) this.logger.log(`asset ${ctx.assetId}: loudness ${describeNormalization(normalization)}`);
      const args = buildRemuxArgs(input, {
        outputDir,
        hasVideo: probed.video !== undefined,
        hasAudio: probed.hasAudio,
        segmentSeconds: this.settings.segmentSeconds,
        legacyHlsMuxer,
        ...(normalization?.filter ? { audioFilter: normalization.filter } : {}),
      });
      await toolkit.runner.ffmpeg(args, options);
      const expected = { seconds: expectedRenditionSeconds(probed, false), video: probed.video !== undefined };
      return { folder, stream: await describeVariant(toolkit.runner, folder, `${SOURCE_VARIANT}/index.m3u8`, expected, known, options) };
    } catch (err) {
      if (ctx.signal.aborted || (err instanceof RenditionError && err.shortfall)) throw err;
      this.logger.warn(`asset ${ctx.assetId}: no quick source rendition (${(err as Error).message}); encoding the ladder only`);
      return undefined;
    }
  }
}

/** Master-playlist fields of the remuxed source as the input probe gives them (used when its segments cannot be probed). */
function sourceFields(probe: FfprobeOutput): KnownVariantFields {
  const video = primaryVideoStream(probe);
  const audio = probe.streams?.find((s) => s.codec_type === 'audio');
  const codecs = codecsOf([video, audio].filter((s): s is FfprobeStream => s !== undefined));
  const frameRate = video ? frameRateOf(video) : -1;
  return {
    ...(video?.width && video.height ? { width: video.width, height: video.height } : {}),
    ...(frameRate > 0 ? { frameRate } : {}),
    ...(codecs ? { codecs } : {}),
  };
}

/** Both results, once both have settled (so no child is left running when one fails). */
async function settleBoth<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
  return [ra.value, rb.value];
}
