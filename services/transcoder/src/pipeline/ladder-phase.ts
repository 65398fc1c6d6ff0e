import { chooseLadder, EncodingProfile, encodingProfileOf, VariantStream } from '@platform/media';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { assets } from '@platform/proto';
import { ObjectStore } from '@platform/storage';
import { buildLadderArgs, LadderOverlay, TEST_ASSET_SECONDS, variantFolder } from '../media/ffmpeg-args';
import { describeVariant, KnownVariantFields } from '../media/hls-variant';
import { interpretProbe } from '../media/interpret-probe';
import { MediaToolkit, MediaTools } from '../media/media-tools';
import { FfprobeOutput, ProbedAsset } from '../media/probe.types';
import { expectedRenditionSeconds } from '../media/rendition-check';
import { AssetProcessing } from './asset-processing';
import { describeNormalization, measureAudioNormalization } from './audio-normalization';
import { HlsPublisher } from './hls-publisher';
import { maxResolutionTierOf, RunState } from './ingest-phase';
import { InputFiles } from './input-files';
import { InputError, JobContext, PipelineOutcome, PipelineSettings } from './job-context';
import { probeInput } from './probe-input';
import { StepTimer } from './step-timer';
import { WatermarkInput } from './watermark-input';

/** What the asset's settings change in its encode. */
interface EncodeSettings {
  test: boolean;
  profile: EncodingProfile;
  overlays: LadderOverlay[];
  audioFilter?: string;
}

/**
 * The ladder phase (an encode slot): one decode feeding every rendition (test assets: first 10 s, marked;
 * a watermark image burnt in; the audio normalized with `normalize_audio`; the preset, bit rates and rungs
 * of the video quality), each variant checked and stored, then the master listing them; MarkReady if the
 * asset did not play from a source rendition already. (The worker drops the kept files when the job ends.)
 */
export class LadderPhase {
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
    const toolkit = await this.media.get();
    const timer = new StepTimer();
    const input = join(ctx.workDir, 'input');
    timer.mark(await this.inputs.fetchForLadder(ctx.inputKey, spec, input, { ...ctx, toolkit }));
    const probe = await probeInput(toolkit.runner, input, { signal: ctx.signal, onSpawn: (pid) => ctx.onChild(pid) });
    const result = interpretProbe(probe, { maxResolutionTier: maxResolutionTierOf(spec) });
    if (!result.ok) throw new InputError(result.error.messages);
    timer.mark('probe');
    const settings = await this.encodeSettings(toolkit, ctx, spec, input, probe, result.asset);
    if (settings.overlays.length > 0 || spec.normalize_audio) timer.mark('watermark + loudness');
    await this.encode(toolkit, ctx, input, result.asset, settings);
    timer.mark('ladder');
    if (!state.ready) {
      await this.assets.markReady(ctx.assetId);
      state.ready = true;
    }
    this.logger.log(`asset ${ctx.assetId}: ladder stored in ${timer.summary()}`);
    return { status: 'done' };
  }

  private async encodeSettings(
    toolkit: MediaToolkit,
    ctx: JobContext,
    spec: assets.IngestSpec,
    input: string,
    probe: FfprobeOutput,
    probed: ProbedAsset,
  ): Promise<EncodeSettings> {
    const overlays = await this.watermark.prepare(ctx, spec, toolkit.runner, 'ladder');
    const settings: EncodeSettings = { test: spec.test, profile: encodingProfileOf(spec), overlays };
    if (spec.normalize_audio && probed.hasAudio) {
      const run = { signal: ctx.signal, onSpawn: (pid: number) => ctx.onChild(pid), test: spec.test };
      const normalization = await measureAudioNormalization(toolkit.runner, input, probe, run);
      this.logger.log(`asset ${ctx.assetId}: loudness ${describeNormalization(normalization)}`);
      if (normalization.filter) settings.audioFilter = normalization.filter;
    }
    return settings;
  }

  /** One decode feeding every rendition; then every variant is checked and stored, and the master listing them last. */
  private async encode(toolkit: MediaToolkit, ctx: JobContext, input: string, probed: ProbedAsset, settings: EncodeSettings): Promise<void> {
    const { test, profile } = settings;
    const ladder = chooseLadder(probed.video, probed.hasAudio, profile);
    const outputDir = join(ctx.workDir, 'ladder');
    const legacyHlsMuxer = toolkit.features.legacyHlsMuxer;
    const args = buildLadderArgs(input, ladder, {
      outputDir,
      frameRate: probed.video?.frameRate ?? -1,
      test,
      segmentSeconds: this.settings.segmentSeconds,
      // a preset in the settings (tests: ultrafast) overrides the video quality's
      preset: this.settings.preset ?? profile.preset,
      watermark: toolkit.features.watermark,
      legacyHlsMuxer,
      overlays: settings.overlays,
      ...(settings.audioFilter ? { audioFilter: settings.audioFilter } : {}),
    });
    const durationSeconds = test ? Math.min(probed.duration, TEST_ASSET_SECONDS) : probed.duration;
    let reported = 0;
    const run = { signal: ctx.signal, onSpawn: (pid: number) => ctx.onChild(pid) };
    await toolkit.runner.ffmpeg(args, {
      ...run,
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
    const expected = { seconds: expectedRenditionSeconds(probed, test), video: ladder.video.length > 0 };
    const publisher = new HlsPublisher(this.store, ctx.assetId, this.settings.uploadConcurrency);
    const streams: VariantStream[] = [];
    for (const [i, { name, known }] of variants.entries()) {
      const folder = join(outputDir, variantFolder(i, name, { legacyHlsMuxer }));
      streams.push(await describeVariant(toolkit.runner, folder, `${name}/index.m3u8`, expected, known, run));
    }
    // Only once every variant passed its check: a player must never be given a broken one.
    for (const [i, { name }] of variants.entries()) await publisher.putVariant(join(outputDir, variantFolder(i, name, { legacyHlsMuxer })), name, ctx.signal);
    await ctx.checkpoint();
    await publisher.putMaster(streams);
  }
}
