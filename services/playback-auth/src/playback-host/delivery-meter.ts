import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { DeliveryItem } from '@platform/events';
import { DELIVERY_CLOCK, DeliveryClock } from './delivery-clock';
import { SegmentCatalog, SegmentFacts } from './segment-catalog';

/** One segment reply the playback host sent. */
export interface ServedSegment {
  playbackId: string;
  assetId: string;
  /** The folder under the asset's `hls/` (the variant) and the file name. */
  folder: string;
  name: string;
  /** Bytes of the reply's body. */
  bytes: number;
  /** The part of the file served: 1 for the whole, less for a byte range (its media seconds count pro rata). */
  share: number;
}

const HOUR_MS = 3_600_000;

/**
 * Sums what the playback host serves, in memory, per hour, playback id and delivery tier, until
 * the reporter drains it. Counting a segment whose playlists this process has served is a few map
 * lookups; another is counted once its playlists are read (SegmentCatalog.resolve), off the request.
 */
@Injectable()
export class DeliveryMeter {
  private readonly logger = new Logger('DeliveryMeter');
  private totals = new Map<string, DeliveryItem>();
  private readonly resolving = new Set<Promise<void>>();
  private hourStart = -1;
  private hourIso = '';
  private readonly now: DeliveryClock;

  constructor(
    @Inject(SegmentCatalog) private readonly catalog: SegmentCatalog,
    @Optional() @Inject(DELIVERY_CLOCK) now?: DeliveryClock,
  ) {
    this.now = now ?? Date.now;
  }

  segmentServed(served: ServedSegment): void {
    const at = this.now();
    const facts = this.catalog.find(served.assetId, served.folder, served.name);
    if (facts === null) return; // not a variant: text tracks, subtitles, alternate audio
    if (facts) return this.add(at, served, facts);
    const resolving = this.catalog
      .resolve(served.assetId, served.folder, served.name)
      .then((found) => {
        if (found) this.add(at, served, found);
      })
      .catch((err: unknown) => this.logger.warn(`a delivery went uncounted: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => this.resolving.delete(resolving));
    this.resolving.add(resolving);
  }

  /** Everything counted since the last drain, and a fresh start. */
  drain(): DeliveryItem[] {
    const items = [...this.totals.values()];
    this.totals = new Map();
    return items;
  }

  /** Resolves once the segments waiting for their playlists are counted (before the last report). */
  async settled(): Promise<void> {
    await Promise.all([...this.resolving]);
  }

  private add(at: number, served: ServedSegment, facts: SegmentFacts): void {
    const hour = this.hourOf(at);
    const key = `${hour}\n${served.playbackId}\n${served.assetId}\n${facts.tier}`;
    let item = this.totals.get(key);
    if (!item) {
      item = {
        hour,
        playback_id: served.playbackId,
        asset_id: served.assetId,
        live_stream_id: null,
        resolution_tier: facts.tier,
        media_seconds: 0,
        bytes: 0,
        segments: 0,
      };
      this.totals.set(key, item);
    }
    item.media_seconds += facts.seconds * served.share;
    item.bytes += served.bytes;
    item.segments += 1;
  }

  private hourOf(at: number): string {
    const start = at - (at % HOUR_MS);
    if (start !== this.hourStart) {
      this.hourStart = start;
      this.hourIso = new Date(start).toISOString();
    }
    return this.hourIso;
  }
}
