import { Inject, Injectable } from '@nestjs/common';
import { DeliveryBatch } from '@platform/events';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';

/**
 * Stores a playback host's delivery batch once: a batch id already in `delivery_items` is not
 * inserted again (a redelivery, or a batch the host sent twice). The batch is one INSERT, which the
 * materialized view sums into `delivery_usage_hourly` in the same statement.
 */
@Injectable()
export class DeliveryBatchRecorder {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  /** True when the batch was stored now, false when it already was. */
  async record(batch: DeliveryBatch): Promise<boolean> {
    const seen = await this.store.query<{ n: number }>('SELECT count() AS n FROM delivery_items WHERE batch_id = {id:String}', { id: batch.id });
    if ((seen[0]?.n ?? 0) > 0) return false;
    // an item with no asset (none the host can report today) has no row to show in the API
    const rows = batch.items
      .filter((item) => item.asset_id)
      .map((item) => ({
        batch_id: batch.id,
        reported_at: batch.reported_at,
        hour: item.hour,
        playback_id: item.playback_id,
        asset_id: item.asset_id,
        live_stream_id: item.live_stream_id,
        resolution_tier: item.resolution_tier,
        media_seconds: item.media_seconds,
        bytes: item.bytes,
        segments: item.segments,
      }));
    await this.store.insert('delivery_items', rows);
    return rows.length > 0;
  }
}
