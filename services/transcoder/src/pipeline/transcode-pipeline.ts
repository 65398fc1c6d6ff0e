import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { assets } from '@platform/proto';
import { OBJECT_STORE, ObjectNotFoundError, ObjectStore } from '@platform/storage';
import { DownloadError } from '../ingest/download';
import { downloadInThread } from '../ingest/download-thread';
import { buildLadderArgs, buildRemuxArgs, TEST_ASSET_SECONDS, variantFolder } from '../media/ffmpeg-args';
import { describeVariant, KnownVariantFields } from '../media/hls-variant';
import { frameRateOf, interpretProbe, primaryVideoStream, rotationOf } from '../media/interpret-probe';
import { chooseLadder } from '../media/ladder';
import { codecsOf, VariantStream } from '../media/master-playlist';
import { MediaToolkit, MediaTools } from '../media/media-tools';
import { FfprobeOutput, FfprobeStream, MaxResolutionTier, ProbedAsset } from '../media/probe.types';
import { ASSET_PROCESSING, AssetProcessing } from './asset-processing';
import { HlsPublisher } from './hls-publisher';
import { InputError, JobContext, PIPELINE_SETTINGS, PipelineOutcome, PipelineSettings } from './job-context';
import { probeInput, scanKeyframes } from './probe-input';
import { toRecordProbeRequest } from './record-probe.mapper';
import { StepTimer } from './step-timer';

export const SOURCE_VARIANT = 'source';
const TIERS: readonly MaxResolutionTier[] = ['1080p', '1440p', '2160p'];

/**
 * One attempt at one asset: ingest spec → download → probe → RecordProbe → (standard input: remux to
 * `source`, master, MarkReady, `playable`) → ladder → master → (MarkReady) → done. Input problems end
 * in MarkErrored{invalid_input}; anything else throws, and the worker tries again later.
 */
@Injectable()
export class TranscodePipeline {
  private readonly logger = new Logger('TranscodePipeline');

  constructor(
    @Inject(ASSET_PROCESSING) private readonly assets: AssetProcessing,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MediaTools) private readonly media: Pick<MediaTools, 'get'>,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(PIPELINE_SETTINGS) private readonly settings: PipelineSettings,
  ) {}

  async run(ctx: JobContext): Promise<PipelineOutcome> {
    ctx.signal.throwIfAborted();
    const spec = await this.assets.getIngestSpec(ctx.assetId);
    if (!spec) return { status: 'cancelled' };
    if (spec.status === 'errored') return { status: 'errored', error: 'The asset was already errored.' };
    try {
      await this.process(ctx, spec);
      return { status: 'done' };
    } catch (err) {
      if (!(err instanceof InputError) || ctx.signal.aborted) throw err;
      // A ready asset (playing from its source rendition) stays ready even if its input is gone now.
      if (spec.status === 'ready') return { status: 'errored', error: err.message };
      await ctx.checkpoint();
      await this.assets.markErrored(ctx.assetId, { type: 'invalid_input', messages: err.messages });
      return { status: 'errored', error: err.message };
    }
  }

  private async process(ctx: JobContext, spec: assets.IngestSpec): Promise<void> {
    const { url, object_key: objectKey } = spec.input[0] ?? {};
    if (!url && !objectKey) throw new InputError(['The asset has no input URL.']);
    const toolkit = await this.media.get();
    const timer = new StepTimer();
    // No extension from the URL: ffprobe would trust `.txt` and read text as a `tty` video.
    const input = join(ctx.workDir, 'input');
    if (objectKey) {
      await this.fetchStored(objectKey, input);
      timer.mark('fetch uploaded file');
    } else {
      await this.download(url as string, input, ctx.signal);
      timer.mark('download');
    }

    const run = { signal: ctx.signal, onSpawn: (pid: number) => ctx.onChild(pid) };
    const probe = await probeInput(toolkit.runner, input, run);
    timer.mark('probe');
    const maxResolutionTier = TIERS.find((t) => t === spec.max_resolution_tier) ?? '1080p';
    const first = interpretProbe(probe, { maxResolutionTier });
    if (!first.ok) throw new InputError(first.error.messages);

    const alreadyReady = spec.status === 'ready'; // a job taken over after its source rendition was published
    const video = primaryVideoStream(probe);
    const remuxable = first.asset.standard && !spec.test && !alreadyReady && (!video || rotationOf(video) === 0);
    // The packet scan (GOP rules) and the remux both read the whole file: run them side by side.
    const [keyframes, remuxed] = await settleBoth(
      video ? scanKeyframes(toolkit.runner, input, run) : Promise.resolve(undefined),
      remuxable ? this.remux(toolkit, ctx, input, first.asset, sourceFields(probe)) : Promise.resolve(undefined),
    );
    timer.mark(remuxable ? 'key-frame scan + remux' : 'key-frame scan');
    const result = interpretProbe(probe, { maxResolutionTier, keyframes });
    if (!result.ok) throw new InputError(result.error.messages);
    const probed = result.asset;
    if (!alreadyReady) await this.assets.recordProbe(toRecordProbeRequest(ctx.assetId, url, probed, spec.test));
    timer.mark('record probe');

    let ready = alreadyReady;
    if (remuxed && probed.standard) {
      const publisher = this.publisher(ctx);
      await publisher.putVariant(remuxed.folder, SOURCE_VARIANT, ctx.signal);
      timer.mark('store source');
      await ctx.checkpoint();
      await publisher.putMaster([remuxed.stream]);
      await this.assets.markReady(ctx.assetId);
      await ctx.markPlayable();
      timer.mark('master + ready');
      ready = true;
      this.logger.log(`asset ${ctx.assetId}: playable from its source rendition in ${timer.summary()}`);
    }
    await this.encodeLadder(toolkit, ctx, input, probed, spec.test);
    timer.mark('ladder');
    if (!ready) await this.assets.markReady(ctx.assetId);
    this.logger.log(`asset ${ctx.assetId}: ladder stored${ready ? '' : ', ready'} in ${timer.summary()}`);
  }

  /** A direct upload's file, from the object store (a hard link on the filesystem store). */
  private async fetchStored(key: string, file: string): Promise<void> {
    try {
      await this.store.getFile(key, file);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw new InputError(['The uploaded file is missing from storage.']);
      throw err;
    }
  }

  private async download(url: string, file: string, signal: AbortSignal): Promise<void> {
    try {
      await downloadInThread(url, file, {
        maxBytes: this.config.media.inputMaxBytes,
        timeoutSeconds: this.config.media.inputDownloadTimeoutSeconds,
        signal,
      });
    } catch (err) {
      if (err instanceof DownloadError) throw new InputError([err.message]);
      throw err;
    }
  }

  /** Stream copy into the `source` variant; undefined (the ladder alone then) if ffmpeg cannot. */
  private async remux(
    toolkit: MediaToolkit,
    ctx: JobContext,
    input: string,
    probed: ProbedAsset,
    known: KnownVariantFields,
  ): Promise<{ folder: string; stream: VariantStream } | undefined> {
    const outputDir = join(ctx.workDir, 'remux');
    const legacyHlsMuxer = toolkit.features.legacyHlsMuxer;
    const args = buildRemuxArgs(input, {
      outputDir,
      hasVideo: probed.video !== undefined,
      hasAudio: probed.hasAudio,
      segmentSeconds: this.settings.segmentSeconds,
      legacyHlsMuxer,
    });
    const folder = join(outputDir, variantFolder(0, SOURCE_VARIANT, { legacyHlsMuxer }));
    try {
      await toolkit.runner.ffmpeg(args, { signal: ctx.signal, onSpawn: (pid) => ctx.onChild(pid) });
      return { folder, stream: await describeVariant(toolkit.runner, folder, `${SOURCE_VARIANT}/index.m3u8`, known, { signal: ctx.signal }) };
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      this.logger.warn(`asset ${ctx.assetId}: no quick source rendition (${(err as Error).message}); encoding the ladder only`);
      return undefined;
    }
  }

  /** One decode feeding every rendition; then every variant is stored, and the master listing them last. */
  private async encodeLadder(toolkit: MediaToolkit, ctx: JobContext, input: string, probed: ProbedAsset, test: boolean): Promise<void> {
    const ladder = chooseLadder(probed.video, probed.hasAudio);
    const outputDir = join(ctx.workDir, 'ladder');
    const legacyHlsMuxer = toolkit.features.legacyHlsMuxer;
    const args = buildLadderArgs(input, ladder, {
      outputDir,
      frameRate: probed.video?.frameRate ?? -1,
      test,
      segmentSeconds: this.settings.segmentSeconds,
      preset: this.settings.preset,
      watermark: toolkit.features.watermark,
      legacyHlsMuxer,
    });
    const durationSeconds = test ? Math.min(probed.duration, TEST_ASSET_SECONDS) : probed.duration;
    let reported = 0;
    await toolkit.runner.ffmpeg(args, {
      signal: ctx.signal,
      onSpawn: (pid) => ctx.onChild(pid),
      durationSeconds,
      onProgress: (p) => {
        if (p.fraction === undefined || p.fraction < reported + 0.25) return;
        reported = p.fraction;
        this.logger.debug(`asset ${ctx.assetId}: ladder ${Math.round(p.fraction * 100)} %${p.speed ? ` at ${p.speed}x` : ''}`);
      },
    });

    const frameRate = Math.min(probed.video?.frameRate ?? -1, 60);
    const variants: Array<{ name: string; known: KnownVariantFields }> =
      ladder.video.length > 0
        ? ladder.video.map((r) => ({ name: r.name, known: { width: r.width, height: r.height, ...(frameRate > 0 ? { frameRate } : {}) } }))
        : [{ name: 'audio', known: {} }];
    const publisher = this.publisher(ctx);
    const streams: VariantStream[] = [];
    for (const [i, { name, known }] of variants.entries()) {
      const folder = join(outputDir, variantFolder(i, name, { legacyHlsMuxer }));
      streams.push(await describeVariant(toolkit.runner, folder, `${name}/index.m3u8`, known, { signal: ctx.signal }));
      await publisher.putVariant(folder, name, ctx.signal);
    }
    await ctx.checkpoint();
    await publisher.putMaster(streams);
  }

  private publisher(ctx: JobContext): HlsPublisher {
    return new HlsPublisher(this.store, ctx.assetId, this.settings.uploadConcurrency);
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
