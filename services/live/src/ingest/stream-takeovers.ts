import { Logger } from '@nestjs/common';
import { LiveStreamEntity } from '../live-streams/live-stream.entity';
import { LiveStreamIngest } from '../live-streams/live-stream-ingest.service';
import { Held, IngestState } from './ingest-state';
import { LiveRecordings } from './live-recordings.service';
import { SimulcastRelays } from './simulcast-relays.service';

/** What the takeovers need of the ingest sessions. */
export interface TakeoverHost {
  readonly owner: string;
  readonly stopping: boolean;
  /** Holds the recording open for `ms` more (0: closes it now). */
  openWindow(streamId: string, held: Held, ms: number): void;
  /** Closes a recording whose stream another process now holds, leaving the stream alone. */
  letGo(streamId: string): void;
  /** Lets a recording in its reconnect window go, unclosed, to the process its encoder reconnected to. */
  handOver(streamId: string): Promise<void>;
}

/** How long a reconnect on this process waits for the former holder to let the recording go (it checks every second). */
export const HANDOVER_WAIT_MS = 5000;

/**
 * The leases of the streams this process serves, and the takeover of streams whose process is
 * gone (killed, or stopped): renewed every second; at start and every RECONCILE_MS orphans are
 * claimed (LiveStreamIngest.claimOrphan: once across processes, disconnected once), their
 * recordings restored from the store and held for the rest of their reconnect window.
 */
export class StreamTakeovers {
  private readonly logger = new Logger('RtmpIngest');
  private reconciling?: Promise<void>;

  constructor(
    private readonly host: TakeoverHost,
    private readonly state: IngestState,
    private readonly ingest: LiveStreamIngest,
    private readonly recordings: LiveRecordings,
    private readonly relays: SimulcastRelays,
  ) {}

  /** Keeps this process's streams; a stream no longer held here (taken over, deleted) is let go: its encoder dropped, its recording closed. */
  async renewLeases(): Promise<void> {
    const mine = this.state.heldStreamIds();
    if (mine.length === 0 || this.host.stopping) return;
    try {
      const kept = await this.ingest.renewLeases(this.host.owner, mine);
      for (const streamId of mine.filter((id) => !kept.has(id))) {
        this.logger.warn(`live stream ${streamId}: no longer held here (taken over by another live service process, or deleted)`);
        for (const running of this.state.running.values()) {
          if (running.streamId !== streamId || running.completed) continue;
          running.endedBy = 'another live service process took the stream over';
          running.session.drop();
        }
        if (this.state.hasEncoder(streamId)) continue;
        if (await this.ingest.handoverRequested(streamId, this.host.owner)) await this.host.handOver(streamId);
        else this.host.letGo(streamId);
      }
    } catch (err) {
      this.logger.warn(`renewing the ingest leases: ${String(err)}`);
    }
  }

  /**
   * The encoder reconnected here while another running process held the recording in its reconnect
   * window: once that one has let it go (or HANDOVER_WAIT_MS passed: it is gone), the recording is
   * restored from the store and held here, to be continued.
   */
  async receive(stream: LiveStreamEntity, assetId: string): Promise<Held | undefined> {
    const deadline = Date.now() + HANDOVER_WAIT_MS;
    while ((await this.ingest.handoverPending(stream.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    // the holder was closing it: this session records a new asset
    if ((await this.ingest.activeAssetOf(stream.id)) !== assetId) return undefined;
    // still pending: the holder died (the mark stays, so should it come back late it hands over, never closes)
    this.logger.log(`live stream ${stream.id}: reconnected here; continuing recording ${assetId} from the live service process that held it`);
    return this.adopt(stream, assetId);
  }

  /** Takes over the streams whose live process is gone; one run at a time. */
  reconcile(): Promise<void> {
    this.reconciling ??= this.reconcileOnce().finally(() => (this.reconciling = undefined));
    return this.reconciling;
  }

  /** The recording a gone process left, restored and held here; its simulcast targets are idle again (fatal ones kept for the recording). */
  adopt(stream: LiveStreamEntity, assetId: string): Promise<Held> {
    const adopting = (async () => {
      const open = await this.recordings.restore(stream, assetId);
      const fatalTargets = new Set(await this.relays.resetTargets(stream.id));
      const held: Held = { ...open, fatalTargets };
      this.state.held.set(stream.id, held);
      return held;
    })();
    this.state.adopting.set(stream.id, adopting);
    return adopting.finally(() => this.state.adopting.delete(stream.id));
  }

  private async reconcileOnce(): Promise<void> {
    if (this.host.stopping) return;
    await this.recordings.resumePasses().catch((err: unknown) => this.logger.warn(`resuming final subtitle passes: ${String(err)}`));
    try {
      for (const id of await this.ingest.findOrphans(this.host.owner)) {
        if (this.host.stopping) return;
        if (this.state.held.has(id) || this.state.hasEncoder(id) || this.state.adopting.has(id)) continue;
        const stream = await this.ingest.claimOrphan(id, this.host.owner);
        if (!stream) continue; // another process took it first
        this.logger.log(`live stream ${id}: taking over from a live service process that is gone`);
        if (!stream.activeAssetId) {
          await this.ingest.markIdle(id, this.host.owner);
          continue;
        }
        const held = await this.adopt(stream, stream.activeAssetId);
        const windowEnd = (stream.disconnectedAt ?? new Date()).getTime() + stream.reconnectWindow * 1000;
        const closeNow = stream.status !== 'active' || stream.completeRequestedAt !== null;
        this.host.openWindow(id, held, closeNow ? 0 : windowEnd - Date.now());
      }
    } catch (err) {
      this.logger.warn(`taking over streams of a gone live service process: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
