import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/errors';
import { platformMetrics } from '@platform/metrics';
import { LiveStreamIngest } from '../live-streams/live-stream-ingest.service';
import { LiveStreamsService } from '../live-streams/live-streams.service';
import { Held, IngestState, Running } from './ingest-state';
import { LiveRecordings } from './live-recordings.service';
import { PublishSession, redactStreamPaths, RtmpServer } from './rtmp-server';
import { SimulcastRelays } from './simulcast-relays.service';
import { slateEnabled } from './slate';
import { ingestPathOf, SrtBridgeTokens } from './stream-path';
import { StreamTakeovers, TakeoverHost } from './stream-takeovers';
import { SessionChecks } from './session-checks';

/** How often running sessions are checked against their stream (key reset, disabled, deleted, limits) and their leases renewed. */
export const SESSION_CHECK_MS = 1000;
/** How often streams a gone live process left are looked for (also once at start). */
export const RECONCILE_MS = 2000;
/** A recording whose close failed because a service was unreachable is closed again this much later. */
const CLOSE_RETRY_MS = 5000;

/**
 * RTMP ingest on RTMP_PORT. An encoder publishing to `/app/{stream_key}` (or an SRT bridge to
 * `/srt/{token}`, see SrtIngest) is let in only for a known key of a stream that is not disabled;
 * the stream is then `active` and its session is recorded (LiveRecording: HLS into the object
 * store, played live on the stream's playback ids). When the encoder leaves, the reconnect window
 * holds the recording open and a reconnect continues it; after the window the recording becomes a
 * ready asset and the stream `idle` (the decisions are sessionStep's). SessionChecks drops a session
 * that must end (key reset, disabled, deleted, limits); those end the recording at once.
 *
 * Each process holds the streams it serves with a lease (LiveStreamIngest). A stream whose process
 * is gone, killed or stopped, is taken over at start and every RECONCILE_MS by a running one: the
 * encoder's disconnect (once), its recording restored from the store, the rest of the reconnect
 * window (a reconnect continues the recording), then the recording closed and the stream idle.
 * On shutdown the encoders are dropped, their last segments stored, relays stopped and the streams
 * let go, disconnected, for the next process to take over at once.
 */
@Injectable()
export class IngestSessions implements OnApplicationBootstrap, BeforeApplicationShutdown, TakeoverHost {
  private readonly logger = new Logger('RtmpIngest');
  private readonly sessions = platformMetrics.liveSessions();
  private readonly state = new IngestState();
  private readonly running = this.state.running;
  private readonly held = this.state.held;
  private readonly takeovers: StreamTakeovers;
  /** Sessions that ended while still being admitted: their admission ends them once done. */
  private readonly endedEarly = new Set<string>();
  private server?: RtmpServer;
  private timer?: NodeJS.Timeout;
  private reconciler?: NodeJS.Timeout;
  stopping = false;

  constructor(
    @Inject(LiveStreamIngest) private readonly ingest: LiveStreamIngest,
    @Inject(LiveStreamsService) private readonly streams: LiveStreamsService,
    @Inject(LiveRecordings) private readonly recordings: LiveRecordings,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(SimulcastRelays) private readonly relays: SimulcastRelays,
    @Inject(SrtBridgeTokens) private readonly srtBridges: SrtBridgeTokens,
  ) {
    this.takeovers = new StreamTakeovers(this, this.state, ingest, recordings, relays);
  }

  /** This process, as the owner of the streams it serves. */
  get owner(): string {
    return this.recordings.owner;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.server = new RtmpServer({
      port: this.config.rtmpPort,
      host: this.config.host,
      dataDir: this.config.dataDir,
      logLevel: this.config.logLevel,
      onPublish: (session) => void this.admit(session).catch((err: unknown) => this.fail(session, err)),
      onUnpublish: (session) => void this.end(session).catch((err: unknown) => this.logger.error(`ending session ${session.id}: ${String(err)}`)),
    });
    await this.server.start();
    const checks = new SessionChecks(this, this.state, this.takeovers, this.ingest, this.streams, this.recordings);
    this.timer = setInterval(() => void checks.run(), SESSION_CHECK_MS);
    this.reconciler = setInterval(() => void this.takeovers.reconcile(), RECONCILE_MS);
    void this.takeovers.reconcile();
  }

  /**
   * Shutdown, before the database closes: no new sessions; encoders dropped, their last segments
   * stored, relays stopped (targets idle); every stream let go (an encoder that was on is
   * disconnected now), so the next process takes it over at once and its recording is closed
   * (or continued by a reconnect) there.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    clearInterval(this.reconciler);
    await this.takeovers.reconcile();
    for (const held of this.held.values()) clearTimeout(held.window);
    const sessions = [...this.running.values()];
    this.running.clear();
    await this.server?.stop();
    const connected = new Set(sessions.filter((r) => !r.completed).map((r) => r.streamId));
    await Promise.all(sessions.map((r) => this.stopSession(r)));
    await Promise.all([...this.held.values()].map((h) => h.recording.endSlate().catch(() => undefined)));
    for (const streamId of new Set([...this.held.keys(), ...connected])) {
      await this.ingest
        .release(streamId, this.owner, connected.has(streamId))
        .catch((err: unknown) => this.logger.warn(`releasing ${streamId}: ${String(err)}`));
    }
    for (const held of this.held.values()) held.recording.halt();
    this.held.clear();
    await this.recordings.stop();
    this.logger.log(`stopped: ${sessions.length} encoder session(s) ended, their streams left for the next start`);
  }

  private async admit(session: PublishSession): Promise<void> {
    if (this.stopping) return this.refuse(session, 'the live service is stopping');
    if (this.relays.isRelayConnection(session.remoteAddress, session.remotePort)) {
      return this.refuse(session, 'it comes from a simulcast relay of this platform (a target pointing back at its own ingest)');
    }
    const path = ingestPathOf(session.streamPath);
    if (!path) return this.refuse(session, 'not an ingest path; publish to /app/{stream_key}');
    const protocol = path.app === 'srt' ? 'srt' : 'rtmp';
    const key = path.app === 'srt' ? this.srtBridges.redeem(path.token) : path.streamKey;
    if (!key) return this.refuse(session, 'not an admitted SRT caller');
    const verdict = await this.ingest.authorizePublish(key);
    if ('refused' in verdict) return this.refuse(session, verdict.refused);
    const { stream } = verdict;
    if (this.hasEncoder(stream.id)) return this.refuse(session, 'the live stream already has an encoder');
    const claim = await this.ingest.claimForPublish(stream.id, this.owner);
    if (claim.busy) return this.refuse(session, 'the live stream already has an encoder (on another live service process)');
    if (claim.orphan?.activeAssetId && !this.held.has(stream.id)) await this.takeovers.adopt(claim.orphan, claim.orphan.activeAssetId);
    if (claim.handover?.activeAssetId && !this.held.has(stream.id)) await this.takeovers.receive(claim.handover, claim.handover.activeAssetId);
    await this.state.adopting.get(stream.id)?.catch(() => undefined);
    if (this.stopping) return this.refuse(session, 'the live service is stopping');

    let held = this.held.get(stream.id);
    const reconnected = held !== undefined;
    if (held) clearTimeout(held.window);
    else {
      held = { ...(await this.recordings.start(stream, protocol)), fatalTargets: new Set() };
      this.held.set(stream.id, held);
    }
    const running: Running = { session, streamId: stream.id, key, startedAt: new Date(), recording: held.recording, relays: [] };
    this.running.set(session.id, running);
    this.sessions.set({ service: 'live' }, this.running.size);
    if (reconnected) await held.recording.endSlate();
    await this.ingest.markActive(stream.id, this.owner, protocol, reconnected ? undefined : held.recording.assetId, reconnected);
    running.packager = await held.recording.startSession(session.pullUrl);
    running.relays = await this.relays.start(stream.id, session.pullUrl, held.fatalTargets);
    this.logger.log(
      `live stream ${stream.id}: encoder ${reconnected ? 'reconnected' : 'connected'} over ${protocol.toUpperCase()}, recording into asset ${held.recording.assetId}`,
    );
    if (this.endedEarly.delete(session.id) || this.stopping) await this.end(session);
  }

  private async end(session: PublishSession): Promise<void> {
    const running = this.running.get(session.id);
    if (!running) {
      if (this.stopping) return; // the shutdown ends it
      this.endedEarly.add(session.id);
      setTimeout(() => this.endedEarly.delete(session.id), 60_000).unref();
      return;
    }
    this.running.delete(session.id);
    this.sessions.set({ service: 'live' }, this.running.size);
    await this.stopRelays(running);
    if (running.completed) {
      await this.ingest.markEnded(running.streamId, this.owner); // the recording was closed by complete: only `disconnected` is left
      return;
    }
    const ending = running.packager ? running.recording.endSession(running.packager) : Promise.resolve();
    const stream = running.endedBy ? null : await this.ingest.findForIngest(running.streamId);
    // held for the reconnect window, as sessionStep decides under the row's lock (not when disabled, completed or deleted meanwhile)
    const holds = stream !== null && (await this.ingest.markDisconnected(running.streamId, this.owner));
    if (!stream || !holds) {
      await ending;
      await this.finish(running.streamId, true);
      return;
    }
    const windowSeconds = stream.reconnectWindow;
    const held = this.held.get(running.streamId);
    // a reconnect may already be in (its admission cleared no window yet): then there is nothing to wait for
    if (held && !this.hasEncoder(running.streamId)) {
      this.openWindow(running.streamId, held, windowSeconds * 1000);
      this.logger.log(`live stream ${running.streamId}: encoder disconnected; waiting ${windowSeconds} s for it to reconnect`);
    }
    await ending;
    // slate fills the window (its shape is the session's, known once its last segments are in)
    if (held && stream && slateEnabled(stream) && this.held.get(running.streamId) === held && !this.hasEncoder(running.streamId)) {
      await held.recording.startSlate();
    }
  }

  /** Shutdown of one session: relays stopped, the packager's last segments stored; the stream is let go after. */
  private async stopSession(running: Running): Promise<void> {
    try {
      await this.stopRelays(running);
      if (running.completed) await this.ingest.markEnded(running.streamId, this.owner);
      else if (running.packager) await running.recording.endSession(running.packager);
    } catch (err) {
      this.logger.warn(`stopping live stream ${running.streamId}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  openWindow(streamId: string, held: Held, ms: number): void {
    clearTimeout(held.window);
    held.window = setTimeout(() => void this.finish(streamId, false), Math.max(0, ms));
  }

  private async stopRelays(running: Running): Promise<void> {
    const fatal = await this.relays.stop(running.streamId, running.relays.splice(0));
    const held = this.held.get(running.streamId);
    if (held) fatal.forEach((id) => held.fatalTargets.add(id));
    else await this.relays.release(running.streamId, fatal);
  }

  letGo(streamId: string): void {
    this.logger.warn(`live stream ${streamId}: closing its recording here`);
    void this.finish(streamId, false, { lost: true });
  }

  /**
   * The encoder reconnected to another process: the window here ends, the last segments of the session
   * and of slate are stored, and the recording goes there unclosed. A recording already closing here is
   * not handed over: the other process records anew.
   */
  async handOver(streamId: string): Promise<void> {
    const held = this.held.get(streamId);
    if (held?.closing) {
      await this.ingest.handoverRefused(streamId);
      return;
    }
    if (held) {
      clearTimeout(held.window);
      held.window = undefined;
      this.held.delete(streamId);
      await held.recording.endSlate().catch((err: unknown) => this.logger.warn(`live stream ${streamId}: ending slate: ${String(err)}`));
      await held.recording.settle();
      await held.recording.dispose();
      this.logger.log(`live stream ${streamId}: its encoder reconnected to another live service process; recording ${held.recording.assetId} handed over`);
    }
    await this.ingest.handoverDone(streamId);
  }

  private hasEncoder(streamId: string): boolean {
    return this.state.hasEncoder(streamId);
  }

  /**
   * The recording is over: a ready asset, then the stream `idle` (`disconnectedNow`: with its
   * disconnect). `lost`: another process has taken the stream over; only the recording is closed.
   * A close that fails because the assets service is unreachable is tried again.
   */
  private async finish(streamId: string, disconnectedNow: boolean, options: { completed?: boolean; lost?: boolean } = {}): Promise<void> {
    if (!options.completed && !options.lost && this.hasEncoder(streamId)) return; // reconnected: the recording goes on
    if (this.stopping) return;
    const held = this.held.get(streamId);
    if (held?.closing) return;
    if (held) {
      held.closing = true;
      clearTimeout(held.window);
      held.window = undefined;
      try {
        await this.recordings.close(held);
        this.logger.log(`live stream ${streamId}: recording ${held.recording.assetId} finished`);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (!(err instanceof DomainError) && !this.stopping && this.held.get(streamId) === held) {
          this.logger.warn(`live stream ${streamId}: closing recording ${held.recording.assetId} failed (${message}); trying again`);
          held.closing = false;
          held.window = setTimeout(() => void this.finish(streamId, disconnectedNow, options), CLOSE_RETRY_MS);
          return;
        }
        this.logger.error(`live stream ${streamId}: finishing recording ${held.recording.assetId} failed: ${message}`);
        await held.recording.dispose();
      }
      if (this.held.get(streamId) === held) this.held.delete(streamId);
      await this.relays.release(streamId, held.fatalTargets);
    }
    if (options.lost) return;
    if (disconnectedNow) await this.ingest.markEnded(streamId, this.owner);
    else await this.ingest.markIdle(streamId, this.owner, options.completed ? 'complete' : 'reconnect-window-elapsed');
  }

  /** `complete`: the recording ends now (ready asset, stream idle); the encoder is dropped 60 s later by the check. */
  async complete(streamId: string): Promise<void> {
    for (const running of this.running.values()) if (running.streamId === streamId) running.completed = true;
    this.logger.log(`live stream ${streamId}: completed; closing its recording`);
    await this.finish(streamId, false, { completed: true });
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
