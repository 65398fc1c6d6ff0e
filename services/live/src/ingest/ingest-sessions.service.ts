import fs from 'node:fs';
import path from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { GeneratedSubtitles, generatedSubtitlesOf, GeneratedTrackStatuses } from '../live-streams/generated-subtitles';
import { LiveStreamEntity } from '../live-streams/live-stream.entity';
import { LiveStreamsService } from '../live-streams/live-streams.service';
import { OutboundPolicy } from '../live-streams/outbound-policy';
import { HlsPackager } from './hls-packager';
import { LiveRecording } from './live-recording';
import { PublishSession, redactStreamPaths, RtmpServer } from './rtmp-server';
import { SimulcastRelay } from './simulcast-relay';
import { SimulcastRelays } from './simulcast-relays.service';
import { captionChannels } from './captions';
import { slateEnabled } from './slate';
import { webVtt } from './speech/cues';
import { recognizerAvailable } from './speech/speech-recognizer';
import { ingestPathOf, SrtBridgeTokens } from './stream-path';

/** How often running sessions are checked against their stream (key reset, disabled, deleted, limits). */
export const SESSION_CHECK_MS = 1000;
/** The speech recognizer scripts/infra/speech.sh makes in the checkout (the same path from src/ and dist/). */
const CHECKOUT_SPEECH_PYTHON = path.resolve(__dirname, '..', '..', '..', '..', '.cache', 'speech', 'venv', 'bin', 'python');

interface Running {
  session: PublishSession;
  streamId: string;
  key: string;
  startedAt: Date;
  recording: LiveRecording;
  packager?: HlsPackager;
  relays: SimulcastRelay[];
  /** Set when the platform ended the session (no reconnect window then). */
  endedBy?: string;
  /** `complete` closed the recording; the encoder stays connected until its 60 s are over. */
  completed?: boolean;
}

interface Held {
  recording: LiveRecording;
  /** While the encoder is away: the end of the reconnect window. */
  window?: NodeJS.Timeout;
  /** Simulcast targets that failed fatally: not tried again for this recording. */
  fatalTargets: Set<string>;
  /** The stream's generated subtitles, as the recording's tracks were made. */
  generated?: { subtitles: GeneratedSubtitles; statuses: GeneratedTrackStatuses };
}

/**
 * RTMP ingest on RTMP_PORT. An encoder publishing to `/app/{stream_key}` (or an SRT bridge to
 * `/srt/{token}`, see SrtIngest) is let in only for a known key of a stream that is not disabled; the stream is then `active` and its session is recorded
 * (LiveRecording: HLS into the object store, played live on the stream's playback ids). When the
 * encoder leaves, the reconnect window holds the recording open and a reconnect continues it; after
 * the window the recording becomes a ready asset and the stream `idle`. A running session is dropped
 * within SESSION_CHECK_MS once its key is reset, its stream disabled or deleted (checked against the
 * database, so it holds whichever replica served the change), or it reaches max_continuous_duration
 * (a test stream is disabled after 5 minutes); those end the recording at once.
 */
@Injectable()
export class IngestSessions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RtmpIngest');
  private readonly running = new Map<string, Running>();
  private readonly held = new Map<string, Held>();
  /** Sessions that ended while still being admitted: their admission ends them once done. */
  private readonly endedEarly = new Set<string>();
  private server?: RtmpServer;
  private timer?: NodeJS.Timeout;
  private speechPython = 'python3';
  /** Whether generated subtitles can be made (the recognizer runs); checked once at start. */
  private canHear: Promise<boolean> = Promise.resolve(false);
  /** Closed recordings whose generated_live_final subtitles are still being made. */
  private readonly transcribing = new Set<LiveRecording>();

  constructor(
    @Inject(LiveStreamsService) private readonly streams: LiveStreamsService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(SimulcastRelays) private readonly relays: SimulcastRelays,
    @Inject(SrtBridgeTokens) private readonly srtBridges: SrtBridgeTokens,
    @Inject(OutboundPolicy) private readonly outbound: OutboundPolicy,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.speechPython = this.config.media.speechPython ?? (fs.existsSync(CHECKOUT_SPEECH_PYTHON) ? CHECKOUT_SPEECH_PYTHON : 'python3');
    this.canHear = recognizerAvailable(this.speechPython).then((ok) => {
      if (!ok)
        this.logger.warn(
          `no speech recognizer (${this.speechPython} cannot import pocketsphinx): generated subtitle tracks will be errored; run scripts/infra/speech.sh or set SPEECH_PYTHON`,
        );
      return ok;
    });
    this.server = new RtmpServer({
      port: this.config.rtmpPort,
      host: this.config.host,
      dataDir: this.config.dataDir,
      logLevel: this.config.logLevel,
      onPublish: (session) => void this.admit(session).catch((err: unknown) => this.fail(session, err)),
      onUnpublish: (session) => void this.end(session).catch((err: unknown) => this.logger.error(`ending session ${session.id}: ${String(err)}`)),
    });
    await this.server.start();
    this.timer = setInterval(() => void this.checkRunning(), SESSION_CHECK_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    for (const held of this.held.values()) clearTimeout(held.window);
    await Promise.all([...this.transcribing].map((r) => r.dispose()));
    await this.server?.stop();
  }

  private async admit(session: PublishSession): Promise<void> {
    if (this.relays.isRelayConnection(session.remoteAddress, session.remotePort)) {
      return this.refuse(session, 'it comes from a simulcast relay of this platform (a target pointing back at its own ingest)');
    }
    const path = ingestPathOf(session.streamPath);
    if (!path) return this.refuse(session, 'not an ingest path; publish to /app/{stream_key}');
    const protocol = path.app === 'srt' ? 'srt' : 'rtmp';
    const key = path.app === 'srt' ? this.srtBridges.redeem(path.token) : path.streamKey;
    if (!key) return this.refuse(session, 'not an admitted SRT caller');
    const verdict = await this.streams.authorizePublish(key);
    if ('refused' in verdict) return this.refuse(session, verdict.refused);
    const { stream } = verdict;
    if (this.hasEncoder(stream.id)) return this.refuse(session, 'the live stream already has an encoder');

    let held = this.held.get(stream.id);
    const reconnected = held !== undefined;
    if (held) clearTimeout(held.window);
    else {
      held = { ...(await this.newRecording(stream, protocol)), fatalTargets: new Set() };
      this.held.set(stream.id, held);
    }
    const running: Running = { session, streamId: stream.id, key, startedAt: new Date(), recording: held.recording, relays: [] };
    this.running.set(session.id, running);
    if (reconnected) await held.recording.endSlate();
    await this.streams.markActive(stream.id, protocol, reconnected ? undefined : held.recording.assetId, reconnected);
    const source = session.pullUrl;
    running.packager = await held.recording.startSession(source);
    running.relays = await this.relays.start(stream.id, source, held.fatalTargets);
    this.logger.log(
      `live stream ${stream.id}: encoder ${reconnected ? 'reconnected' : 'connected'} over ${protocol.toUpperCase()}, recording into asset ${held.recording.assetId}`,
    );
    if (this.endedEarly.delete(session.id)) await this.end(session);
  }

  private async newRecording(stream: LiveStreamEntity, protocol: 'rtmp' | 'srt'): Promise<Pick<Held, 'recording' | 'generated'>> {
    const assetId = await this.streams.createRecordingAsset(stream, protocol);
    const subtitles = generatedSubtitlesOf(stream.generatedSubtitles);
    const hears = subtitles !== undefined && (await this.canHear);
    const generated = subtitles && {
      subtitles,
      statuses: hears ? ({ live: 'ready', final: 'preparing' } as const) : ({ live: 'errored', final: 'errored' } as const),
    };
    if (generated) await this.streams.addGeneratedTracks(assetId, generated.subtitles, generated.statuses);
    const recording = new LiveRecording(
      assetId,
      stream.latencyMode,
      path.join(this.config.dataDir, 'live', assetId),
      {
        ffmpegPath: this.config.media.ffmpegPath ?? 'ffmpeg',
        ffprobePath: this.config.media.ffprobePath ?? 'ffprobe',
        speechPython: this.speechPython,
        store: this.store,
        guard: this.outbound.guard,
        warn: (message) => this.logger.warn(`live stream ${stream.id}: ${message}`),
      },
      { captions: stream.audioOnly ? [] : captionChannels(stream.embeddedSubtitles), audioOnly: stream.audioOnly, subtitles: hears ? subtitles : undefined },
    );
    if (stream.reconnectWindow > 0) recording.prepareSlate(stream.reconnectSlateUrl);
    return { recording, generated };
  }

  private async end(session: PublishSession): Promise<void> {
    const running = this.running.get(session.id);
    if (!running) {
      this.endedEarly.add(session.id);
      setTimeout(() => this.endedEarly.delete(session.id), 60_000).unref();
      return;
    }
    this.running.delete(session.id);
    await this.stopRelays(running);
    if (running.completed) {
      await this.streams.markEnded(running.streamId); // the recording was closed by complete: only `disconnected` is left
      return;
    }
    const ending = running.packager ? running.recording.endSession(running.packager) : Promise.resolve();
    const stream = running.endedBy ? null : await this.streams.findForIngest(running.streamId);
    const windowSeconds = stream && stream.status === 'active' ? stream.reconnectWindow : 0;
    if (windowSeconds <= 0) {
      await ending;
      await this.finish(running.streamId, true);
      return;
    }
    await this.streams.markDisconnected(running.streamId);
    const held = this.held.get(running.streamId);
    // a reconnect may already be in (its admission cleared no window yet): then there is nothing to wait for
    if (held && !this.hasEncoder(running.streamId)) {
      held.window = setTimeout(() => void this.finish(running.streamId, false), windowSeconds * 1000);
      this.logger.log(`live stream ${running.streamId}: encoder disconnected; waiting ${windowSeconds} s for it to reconnect`);
    }
    await ending;
    // slate fills the window (its shape is the session's, known once its last segments are in)
    if (held && stream && slateEnabled(stream) && this.held.get(running.streamId) === held && !this.hasEncoder(running.streamId)) {
      await held.recording.startSlate();
    }
  }

  private async stopRelays(running: Running): Promise<void> {
    const fatal = await this.relays.stop(running.streamId, running.relays.splice(0));
    const held = this.held.get(running.streamId);
    if (held) fatal.forEach((id) => held.fatalTargets.add(id));
    else await this.relays.release(running.streamId, fatal);
  }

  private hasEncoder(streamId: string): boolean {
    return [...this.running.values()].some((r) => r.streamId === streamId);
  }

  /** The recording is over: a ready asset, then the stream `idle`. */
  private async finish(streamId: string, disconnectedNow: boolean, completed = false): Promise<void> {
    if (!completed && this.hasEncoder(streamId)) return; // reconnected: the recording goes on
    const held = this.held.get(streamId);
    this.held.delete(streamId);
    if (held) {
      clearTimeout(held.window);
      await this.relays.release(streamId, held.fatalTargets);
      let finalTrack: string | undefined;
      try {
        finalTrack = await this.closeRecording(held);
        this.logger.log(`live stream ${streamId}: recording ${held.recording.assetId} finished`);
      } catch (err) {
        this.logger.error(`live stream ${streamId}: finishing recording ${held.recording.assetId} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (finalTrack) this.transcribe(held.recording, finalTrack);
      else await held.recording.dispose();
    }
    if (disconnectedNow) await this.streams.markEnded(streamId);
    else await this.streams.markIdle(streamId);
  }

  /**
   * The closed recording becomes a ready asset: its probe and tracks, the text tracks' WebVTT
   * (caption channels, generated_live). Returns the generated_live_final track still to be made.
   */
  private async closeRecording(held: Held): Promise<string | undefined> {
    const { recording } = held;
    const summary = await recording.close();
    if (summary.segments === 0) return undefined;
    const captions = summary.captions.map(({ channel }) => channel);
    const textTracks = await this.streams.recordRecording(recording.assetId, { ...summary, captions, generated: held.generated });
    const embedded = textTracks.filter((t) => t.text_source === 'embedded');
    for (const [i, { vtt }] of summary.captions.entries()) if (embedded[i]) await recording.storeCaptions(embedded[i].id, vtt);
    const liveTrack = textTracks.find((t) => t.text_source === 'generated_live' && t.status === 'ready');
    if (liveTrack) await recording.storeCaptions(liveTrack.id, webVtt(summary.generatedCues ?? []));
    await this.streams.markRecordingReady(recording.assetId);
    return textTracks.find((t) => t.text_source === 'generated_live_final' && t.status === 'preparing')?.id;
  }

  /** generated_live_final (spec 3: ready once the stream ends): the recording heard again, after the asset is ready. */
  private transcribe(recording: LiveRecording, trackId: string): void {
    this.transcribing.add(recording);
    void (async () => {
      try {
        await recording.storeCaptions(trackId, webVtt(await recording.finalSubtitles()));
        await this.streams.setTrackStatus(recording.assetId, trackId, 'ready');
      } catch (err) {
        this.logger.warn(`recording ${recording.assetId}: generated_live_final subtitles failed: ${err instanceof Error ? err.message : String(err)}`);
        await this.streams.setTrackStatus(recording.assetId, trackId, 'errored').catch(() => undefined);
      } finally {
        this.transcribing.delete(recording);
        await recording.dispose();
      }
    })();
  }

  private async checkRunning(): Promise<void> {
    for (const streamId of [...this.held.keys()]) {
      try {
        if (await this.streams.completionRequested(streamId)) await this.complete(streamId);
      } catch (err) {
        this.logger.warn(`completing live stream ${streamId}: ${String(err)}`);
      }
    }
    for (const running of [...this.running.values()]) {
      try {
        const end = await this.streams.sessionEnd(running.streamId, running.key, running.startedAt);
        if (end) {
          this.logger.log(`live stream ${running.streamId}: dropping its encoder (${end.reason})`);
          running.endedBy = end.reason;
          if (end.disable) await this.streams.disable(running.streamId);
          running.session.drop();
        }
      } catch (err) {
        this.logger.warn(`checking live stream ${running.streamId}: ${String(err)}`);
      }
    }
  }

  /** `complete`: the recording ends now (ready asset, stream idle); the encoder is dropped 60 s later by the check. */
  private async complete(streamId: string): Promise<void> {
    for (const running of this.running.values()) if (running.streamId === streamId) running.completed = true;
    this.logger.log(`live stream ${streamId}: completed; closing its recording`);
    await this.finish(streamId, false, true);
  }

  private refuse(session: PublishSession, reason: string): void {
    this.logger.warn(`refused a publish to ${redactStreamPaths(session.streamPath)}: ${reason}`);
    session.drop();
  }

  private fail(session: PublishSession, err: unknown): void {
    this.logger.error(`admitting an RTMP publish: ${err instanceof Error ? err.message : String(err)}`);
    session.drop();
  }
}
