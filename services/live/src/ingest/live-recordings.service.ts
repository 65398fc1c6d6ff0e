import { LiveMediaBinaries } from './live-media-binaries';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { recognizerAvailable, speechPython, webVtt } from '@platform/captions';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/errors';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { GeneratedSubtitles, generatedSubtitlesOf, GeneratedTrackStatuses } from '../live-streams/generated-subtitles';
import { LatencyMode, LiveStreamEntity } from '../live-streams/live-stream.entity';
import { RecordingAssets } from '../live-streams/recording-assets';
import { OutboundPolicy } from '../live-streams/outbound-policy';
import { captionChannels } from './captions';
import { FinalSubtitlePass, FinalSubtitlePasses } from './final-subtitle-passes';
import { LiveRecording, RecordingOptions, RecordingTools } from './live-recording';

/** Why a recording with no media is errored. */
export const NO_MEDIA = 'The live stream recorded no media: its encoder left before the first segment was complete.';

/** A recording of a stream, open: its asset's recording and the generated subtitle tracks it started with. */
export interface OpenRecording {
  streamId: string;
  latencyMode: LatencyMode;
  recording: LiveRecording;
  generated?: { subtitles: GeneratedSubtitles; statuses: GeneratedTrackStatuses };
}

/**
 * The recordings of live streams into assets: a new one for an encoder's first session, one a
 * gone process left open restored from the store, and closing them (a ready asset with its tracks
 * and text tracks, or an errored one when no media was recorded; then generated_live_final, whose
 * pass is recorded (FinalSubtitlePasses) so that one a stopped or killed process did not finish is
 * resumed by the next).
 */
@Injectable()
export class LiveRecordings implements OnApplicationBootstrap {
  private readonly logger = new Logger('LiveRecordings');
  /** This process, as the owner of the streams and final passes it serves. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private speechPython = 'python3';
  /** Whether generated subtitles can be made (the recognizer runs); checked once at start. */
  private canHear: Promise<boolean> = Promise.resolve(false);
  /** Closed recordings whose generated_live_final subtitles are still being made. */
  private readonly transcribing = new Map<LiveRecording, FinalSubtitlePass>();

  constructor(
    @Inject(RecordingAssets) private readonly assets: RecordingAssets,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(OutboundPolicy) private readonly outbound: OutboundPolicy,
    @Inject(FinalSubtitlePasses) private readonly passes: FinalSubtitlePasses,
    @Inject(LiveMediaBinaries) private readonly binaries: LiveMediaBinaries,
  ) {}

  onApplicationBootstrap(): void {
    this.speechPython = speechPython(this.config.media.speechPython);
    this.canHear = recognizerAvailable(this.speechPython).then((ok) => {
      if (!ok)
        this.logger.warn(
          `no speech recognizer (${this.speechPython} cannot import pocketsphinx): generated subtitle tracks will be errored; run scripts/infra/speech.sh or set SPEECH_PYTHON`,
        );
      return ok;
    });
  }

  /** The recording of a stream's first encoder session: a new asset (with its generated tracks). */
  async start(stream: LiveStreamEntity, protocol: 'rtmp' | 'srt'): Promise<OpenRecording> {
    const assetId = await this.assets.createRecordingAsset(stream, protocol);
    const { options, generated } = await this.optionsOf(stream);
    if (generated) await this.assets.addGeneratedTracks(assetId, generated.subtitles, generated.statuses);
    const recording = new LiveRecording(assetId, stream.latencyMode, this.workDir(assetId), this.tools(stream.id), options);
    if (stream.reconnectWindow > 0) recording.prepareSlate(stream.reconnectSlateUrl);
    return { streamId: stream.id, latencyMode: stream.latencyMode, recording, generated };
  }

  /** The recording (`active_asset_id`) a gone live process left open, from what it stored. */
  async restore(stream: LiveStreamEntity, assetId: string): Promise<OpenRecording> {
    const { options, generated } = await this.optionsOf(stream);
    const recording = await LiveRecording.restore(assetId, stream.latencyMode, this.workDir(assetId), this.tools(stream.id), options);
    if (stream.reconnectWindow > 0) recording.prepareSlate(stream.reconnectSlateUrl);
    return { streamId: stream.id, latencyMode: stream.latencyMode, recording, generated };
  }

  /**
   * The recording is over: a ready asset (its probe, tracks, the text tracks' WebVTT), or an
   * errored one when it holds no media; then generated_live_final is made in the background.
   * Throws what the assets service answered; unreachable is worth a retry (the close can be run again).
   */
  async close(open: OpenRecording): Promise<void> {
    const { recording } = open;
    const summary = await recording.close();
    if (summary.segments === 0) {
      await this.assets.markRecordingErrored(recording.assetId, NO_MEDIA);
      await recording.dispose();
      return;
    }
    const captions = summary.captions.map(({ channel }) => channel);
    const textTracks = await this.assets.recordRecording(recording.assetId, { ...summary, captions, generated: open.generated });
    const embedded = textTracks.filter((t) => t.text_source === 'embedded');
    for (const [i, { vtt }] of summary.captions.entries()) if (embedded[i]) await recording.storeCaptions(embedded[i].id, vtt);
    const liveTrack = textTracks.find((t) => t.text_source === 'generated_live' && t.status === 'ready');
    if (liveTrack) await recording.storeCaptions(liveTrack.id, webVtt(summary.generatedCues ?? []));
    await this.assets.markRecordingReady(recording.assetId);
    const finalTrack = textTracks.find((t) => t.text_source === 'generated_live_final' && t.status === 'preparing')?.id;
    if (finalTrack && open.generated) {
      const pass = {
        assetId: recording.assetId,
        trackId: finalTrack,
        liveStreamId: open.streamId,
        latencyMode: open.latencyMode,
        subtitles: open.generated.subtitles,
      };
      await this.passes.begin(pass, this.owner);
      this.transcribe(recording, pass);
    } else await recording.dispose();
  }

  /** Keeps this process's final passes (called every second). */
  async renewPasses(): Promise<void> {
    if (this.transcribing.size > 0) await this.passes.renew(this.owner);
  }

  /** Resumes the final passes a stopped or killed process did not finish: the closed recording restored from the store, heard again. */
  async resumePasses(): Promise<void> {
    for (const pass of await this.passes.claimOrphans(this.owner)) {
      this.logger.log(`recording ${pass.assetId}: resuming its generated_live_final subtitles`);
      try {
        if (!(await this.canHear)) throw new Error('no speech recognizer');
        const recording = await LiveRecording.restore(pass.assetId, pass.latencyMode, this.workDir(pass.assetId), this.tools(pass.liveStreamId), {
          subtitles: pass.subtitles,
        });
        this.transcribe(recording, pass);
      } catch (err) {
        this.logger.warn(`recording ${pass.assetId}: generated_live_final subtitles failed: ${err instanceof Error ? err.message : String(err)}`);
        await this.finishPass(pass, 'errored');
      }
    }
  }

  /** The service stops: final passes end and are let go (the next process resumes them), local files stay. */
  async stop(): Promise<void> {
    for (const recording of this.transcribing.keys()) recording.halt();
    this.transcribing.clear();
    await this.passes.release(this.owner).catch((err: unknown) => this.logger.warn(`letting final passes go: ${String(err)}`));
  }

  /** generated_live_final (spec 3: ready once the stream ends): the recording heard again, after the asset is ready. */
  private transcribe(recording: LiveRecording, pass: FinalSubtitlePass): void {
    this.transcribing.set(recording, pass);
    void (async () => {
      try {
        const cues = await recording.finalSubtitles();
        if (!this.transcribing.has(recording)) return; // stopped meanwhile: resumed by the next process
        await recording.storeCaptions(pass.trackId, webVtt(cues));
        await this.finishPass(pass, 'ready');
      } catch (err) {
        if (!this.transcribing.has(recording)) return;
        this.logger.warn(`recording ${recording.assetId}: generated_live_final subtitles failed: ${err instanceof Error ? err.message : String(err)}`);
        await this.finishPass(pass, 'errored');
      }
      if (this.transcribing.delete(recording)) await recording.dispose();
    })();
  }

  /** The final track is ready or errored, and its pass over (an asset deleted meanwhile ends it too). */
  private async finishPass(pass: FinalSubtitlePass, status: 'ready' | 'errored'): Promise<void> {
    try {
      await this.assets.setTrackStatus(pass.assetId, pass.trackId, status);
    } catch (err) {
      if (!(err instanceof DomainError)) {
        this.logger.warn(`recording ${pass.assetId}: generated_live_final could not be marked ${status} (${String(err)}); the next start tries again`);
        return;
      }
    }
    await this.passes.end(pass.assetId);
  }

  private async optionsOf(stream: LiveStreamEntity): Promise<{ options: RecordingOptions; generated?: OpenRecording['generated'] }> {
    const subtitles = generatedSubtitlesOf(stream.generatedSubtitles);
    const hears = subtitles !== undefined && (await this.canHear);
    const generated = subtitles && {
      subtitles,
      statuses: hears ? ({ live: 'ready', final: 'preparing' } as const) : ({ live: 'errored', final: 'errored' } as const),
    };
    const options: RecordingOptions = {
      captions: stream.audioOnly ? [] : captionChannels(stream.embeddedSubtitles),
      audioOnly: stream.audioOnly,
      ladder: this.config.liveLadder,
      subtitles: hears ? subtitles : undefined,
    };
    return { options, generated };
  }

  private workDir(assetId: string): string {
    return path.join(this.config.dataDir, 'live', assetId);
  }

  private tools(streamId: string): RecordingTools {
    return {
      ffmpegPath: this.binaries.ffmpeg,
      ffprobePath: this.binaries.ffprobe,
      speechPython: this.speechPython,
      store: this.store,
      guard: this.outbound.guard,
      warn: (message) => this.logger.warn(`live stream ${streamId}: ${message}`),
    };
  }
}
