import { Inject, Injectable } from '@nestjs/common';
import { Emit, UnitOfWork } from '@platform/events';
import { EntityManager } from 'typeorm';
import { emitLiveStreamEvent, LIVE_STREAM_EVENTS } from './live-stream-events';
import { LiveStreamEntity, LiveStreamStatus } from './live-stream.entity';
import { SessionEvent, SessionState, sessionStateOf, sessionStep } from './session-machine';
import { LiveStreamChanges, LiveStreamRepository } from './live-stream.repository';
import { sessionLimitSeconds, TEST_STREAM_SECONDS } from './session-limit';

/** `complete` closes the encoder connection this long after it was called (spec 4.3). */
export const COMPLETE_DROP_SECONDS = 60;
/** How long a live process holds a stream's ingest without renewing it (it renews every second). */
export const INGEST_LEASE_SECONDS = 10;
/** How many recent recordings `recent_asset_ids` keeps. */
const RECENT_ASSETS = 10;

/** A stream's encoder session or open recording left by a live process that is gone (crashed, or stopped). */
export function isOrphaned(stream: LiveStreamEntity, owner: string, now: Date): boolean {
  const recording = stream.status === 'active' || stream.activeAssetId !== null;
  const held = stream.ingestOwner !== null && stream.ingestLeaseUntil !== null && stream.ingestLeaseUntil.getTime() > now.getTime();
  return recording && stream.ingestOwner !== owner && !held;
}

/** What `claimForPublish` found: another process's encoder (busy), or the stream taken, with the recording a gone process left open. */
export type PublishClaim = { busy: true } | { busy: false; orphan?: LiveStreamEntity; handover?: LiveStreamEntity };

/**
 * The live stream as the ingest drives it (spec 3): who may publish, the session's limits, and the status changes of a session with their events. Each process running
 * the ingest (`owner`) holds the streams it serves with a lease in the stream's row; a process that
 * dies leaves a lease that runs out, and another (or the restarted one) takes the stream over with
 * `claimOrphan`, whose disconnect is emitted once, in the transaction that takes it.
 */
@Injectable()
export class LiveStreamIngest {
  constructor(
    @Inject(LiveStreamRepository) private readonly streams: LiveStreamRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * An encoder asks to publish with `key`: the stream, or why it is refused (unknown key, disabled).
   * The old key of a reset finds nothing.
   */
  async authorizePublish(key: string): Promise<{ stream: LiveStreamEntity } | { refused: string }> {
    const [stream] = await this.streams.list({ limit: 1, offset: 0, streamKey: key });
    if (!stream) return { refused: 'unknown stream key' };
    if (stream.status === 'disabled') return { refused: 'the live stream is disabled' };
    return { stream };
  }

  /**
   * Why a running session of `key`, begun at `startedAt`, must end now, or undefined when it may go
   * on: the key was reset, the stream disabled or deleted, or the session reached
   * `max_continuous_duration`. A test stream is disabled after 5 minutes live (Mux: "the test live
   * stream is disabled after the stream is active for 5 mins"): `disable` is then set.
   */
  async sessionEnd(id: string, key: string, startedAt: Date, now = new Date()): Promise<{ reason: string; disable?: boolean } | undefined> {
    const stream = await this.streams.findById(id);
    if (!stream) return { reason: 'the live stream was deleted' };
    if (stream.status === 'disabled') return { reason: 'the live stream was disabled' };
    if (stream.streamKey !== key) return { reason: 'the stream key was reset' };
    if (stream.completeRequestedAt && now.getTime() - stream.completeRequestedAt.getTime() >= COMPLETE_DROP_SECONDS * 1000) {
      return { reason: 'the live stream was completed 60 s ago' };
    }
    const limit = sessionLimitSeconds(stream);
    if (now.getTime() - startedAt.getTime() < limit * 1000) return undefined;
    const testLimit = stream.test && limit === TEST_STREAM_SECONDS;
    return { reason: testLimit ? 'a test stream runs at most 5 minutes' : `the session reached max_continuous_duration (${limit} s)`, disable: testLimit };
  }

  /** Whether `complete` asked to end the recording under way (the ingest then closes it). */
  async completionRequested(id: string): Promise<boolean> {
    const stream = await this.streams.findById(id);
    return stream !== null && stream.completeRequestedAt !== null && stream.activeAssetId !== null;
  }

  /** The stream as the ingest needs it (reconnect window, status), or null once deleted. */
  findForIngest(id: string): Promise<LiveStreamEntity | null> {
    return this.streams.findById(id);
  }

  /**
   * Before an encoder session of this process (`owner`) starts: busy when another live process has
   * an encoder on the stream; otherwise the stream is this process's, and a recording a gone process
   * left open is returned (`orphan`, already taken: the session continues it). A reconnect window
   * another process is holding is taken over (that process closes its recording; this session
   * starts a new one).
   */
  async claimForPublish(id: string, owner: string, now = new Date()): Promise<PublishClaim> {
    return this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream) return { busy: false };
      if (isOrphaned(stream, owner, now)) return { busy: false, orphan: await this.takeOrphan(manager, emit, stream, owner, now) };
      const elsewhere = stream.ingestOwner !== null && stream.ingestOwner !== owner;
      if (elsewhere && stream.status === 'active' && stream.disconnectedAt === null) return { busy: true };
      // a running process holds the recording open in its reconnect window: it is asked to hand it over
      const handover = elsewhere && stream.status === 'active' && stream.activeAssetId !== null && stream.completeRequestedAt === null;
      const taken = await this.streams.update(manager, id, {
        ingestOwner: owner,
        ingestLeaseUntil: leaseEnd(now),
        ...(handover ? { ingestHandoverAt: now } : {}),
      });
      return handover ? { busy: false, handover: taken } : { busy: false };
    });
  }

  /** Whether the process `owner` lost the stream to a reconnect on another process that waits for its recording. */
  async handoverRequested(id: string, owner: string): Promise<boolean> {
    const stream = await this.streams.findById(id);
    return stream !== null && stream.ingestOwner !== owner && stream.ingestHandoverAt !== null;
  }

  /** Whether the former holder has not let the recording go yet. */
  async handoverPending(id: string): Promise<boolean> {
    return (await this.streams.findById(id))?.ingestHandoverAt != null;
  }

  /** The former holder is closing the recording: the reconnect records a new one (its asset is not the stream's any more). */
  async handoverRefused(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      await this.streams.update(manager, id, { ingestHandoverAt: null, activeAssetId: null });
    });
  }

  /** The stream's recording now, as a reconnect that waited for a hand-over finds it. */
  async activeAssetOf(id: string): Promise<string | null> {
    return (await this.streams.findById(id))?.activeAssetId ?? null;
  }

  /** The former holder let the recording go: its last segments are stored, it writes no more. */
  async handoverDone(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      await this.streams.update(manager, id, { ingestHandoverAt: null });
    });
  }

  /** Streams with an encoder session or recording whose process is gone (lease run out, or released). */
  findOrphans(owner: string, now = new Date()): Promise<string[]> {
    return this.streams.findOrphanIds(owner, now);
  }

  /**
   * Takes an orphaned stream for `owner`: undefined when it is none (any more: another process may
   * have taken it first). If its encoder was on when its process went, `disconnected` is emitted
   * now, in the same transaction, so it is sent once whichever process takes it.
   */
  async claimOrphan(id: string, owner: string, now = new Date()): Promise<LiveStreamEntity | undefined> {
    return this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream || !isOrphaned(stream, owner, now)) return undefined;
      return this.takeOrphan(manager, emit, stream, owner, now);
    });
  }

  /** Renews `owner`'s lease on these streams; returns those it still holds (the others were taken over or deleted). */
  async renewLeases(owner: string, ids: readonly string[], now = new Date()): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set(await this.streams.renewLeases(owner, ids, leaseEnd(now)));
  }

  /**
   * An encoder session began (sessionStep `encoder-connects`): `active` (spec 3) recording into `assetId`
   * (`active_asset_id`, last of `recent_asset_ids`), with video.live_stream.connected, .recording and
   * .active; a reconnect inside the window continues the recording (connected only).
   */
  async markActive(id: string, owner: string, protocol: 'rtmp' | 'srt', assetId?: string, reconnected = false): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream) return;
      const before: SessionState = { ...sessionStateOf(stream), encoder: reconnected ? 'away' : 'none', recording: reconnected };
      const step = sessionStep(before, { on: 'encoder-connects' });
      if (step.actions.includes('refuse-encoder')) return;
      const recording =
        step.actions.includes('start-recording') && assetId
          ? { activeAssetId: assetId, recentAssetIds: [...stream.recentAssetIds, assetId].slice(-RECENT_ASSETS), completeRequestedAt: null }
          : {};
      const held = { ingestOwner: owner, ingestLeaseUntil: leaseEnd(new Date()), disconnectedAt: null };
      const updated = await this.streams.update(manager, id, {
        status: step.next.status,
        activeIngestProtocol: protocol,
        ...recording,
        ...held,
        updatedAt: new Date(),
      });
      const events = assetId ? step.events : step.events.filter((e) => e !== 'recording');
      await this.emitAll(manager, emit, updated, events);
    });
  }

  /**
   * The encoder left and the reconnect window holds the recording (`hold-recording`):
   * video.live_stream.disconnected, the stream stays `active`. False when the row says otherwise now (the
   * stream was disabled or completed meanwhile): the caller ends the session instead. A stream another
   * process took is left to the lease renewal that finds it gone (true: nothing to end here).
   */
  async markDisconnected(id: string, owner: string): Promise<boolean> {
    return this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream) return false;
      if (!ownedBy(stream, owner)) return true;
      const step = sessionStep(
        { ...sessionStateOf(stream), encoder: 'connected' },
        { on: 'encoder-leaves', reconnectWindow: stream.reconnectWindow, endedByPlatform: false },
      );
      if (!step.actions.includes('hold-recording')) return false;
      await this.emitAll(manager, emit, await this.streams.update(manager, id, { disconnectedAt: new Date() }), step.events);
      return true;
    });
  }

  /**
   * The encoder session ended with the recording: video.live_stream.disconnected, then `idle` with
   * video.live_stream.idle. A stream disabled or completed while live only disconnects. Nothing
   * when another process has taken the stream over.
   */
  async markEnded(id: string, owner: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream || !ownedBy(stream, owner)) return;
      const step = sessionStep({ ...sessionStateOf(stream), encoder: 'connected' }, { on: 'encoder-leaves', reconnectWindow: 0, endedByPlatform: true });
      await this.emitAll(manager, emit, await this.releaseAt(manager, stream, step.next.status), step.events);
    });
  }

  /**
   * The reconnect window passed, or `complete` closed the recording: `idle` with video.live_stream.idle
   * (a disabled stream stays disabled, without an event).
   */
  async markIdle(id: string, owner: string, trigger: 'reconnect-window-elapsed' | 'complete' = 'reconnect-window-elapsed'): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream || !ownedBy(stream, owner)) return;
      const state = sessionStateOf(stream);
      const before: SessionState = trigger === 'complete' ? { ...state, recording: true } : { ...state, encoder: 'away' };
      const step = sessionStep(before, { on: trigger });
      await this.emitAll(manager, emit, await this.releaseAt(manager, stream, step.next.status), step.events);
    });
  }

  /** The session's recording and ingest released, at `status` (under the caller's lock). */
  private async releaseAt(manager: EntityManager, stream: LiveStreamEntity, status: LiveStreamStatus): Promise<LiveStreamEntity> {
    const changed = status !== stream.status ? { status, updatedAt: new Date() } : {};
    return this.streams.update(manager, stream.id, { activeIngestProtocol: null, activeAssetId: null, ...RELEASED, ...changed });
  }

  private async emitAll(manager: EntityManager, emit: Emit, stream: LiveStreamEntity, events: readonly SessionEvent[]): Promise<void> {
    if (events.length === 0) return;
    const record = await this.streams.record(stream, manager);
    for (const event of events) emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS[event], record);
  }

  /**
   * The process stops: it lets go of the stream (another process, or this one restarted, takes it
   * over at once). An encoder it had on is disconnected (video.live_stream.disconnected, the reconnect
   * window runs from now).
   */
  async release(id: string, owner: string, encoderLeft: boolean): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const stream = await this.streams.lockById(manager, id);
      if (!stream || !ownedBy(stream, owner)) return;
      const disconnect = encoderLeft && stream.disconnectedAt === null;
      const updated = await this.streams.update(manager, id, {
        ingestOwner: null,
        ingestLeaseUntil: null,
        ...(disconnect ? { disconnectedAt: new Date() } : {}),
      });
      if (disconnect) emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.disconnected, await this.streams.record(updated, manager));
    });
  }

  private async takeOrphan(manager: EntityManager, emit: Emit, stream: LiveStreamEntity, owner: string, now: Date) {
    const disconnect = stream.disconnectedAt === null;
    const changes: LiveStreamChanges = { ingestOwner: owner, ingestLeaseUntil: leaseEnd(now), ...(disconnect ? { disconnectedAt: now } : {}) };
    const taken = await this.streams.update(manager, stream.id, changes);
    if (disconnect) emitLiveStreamEvent(emit, LIVE_STREAM_EVENTS.disconnected, await this.streams.record(taken, manager));
    return taken;
  }
}

const RELEASED = { ingestOwner: null, ingestLeaseUntil: null, disconnectedAt: null, ingestHandoverAt: null };

/** Whether `owner` may change the stream's session status: it holds it, or nobody does. */
function ownedBy(stream: LiveStreamEntity, owner: string): boolean {
  return stream.ingestOwner === null || stream.ingestOwner === owner;
}

function leaseEnd(now: Date): Date {
  return new Date(now.getTime() + INGEST_LEASE_SECONDS * 1000);
}
