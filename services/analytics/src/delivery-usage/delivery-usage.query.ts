import { Inject, Injectable } from '@nestjs/common';
import { ANALYTICS_STORE, AnalyticsStore, StoreParams } from '../clickhouse/analytics-store.port';
import { pageWithTotal } from '../clickhouse/paged-query';
import { DeliveryWindow } from './delivery-window';

/** The tiers the playback host reports (`resolution_tier` of a delivery item). */
export const DELIVERY_TIERS = ['audio_only', '720p', '1080p', '1440p', '2160p'] as const;
export type DeliveryTier = (typeof DELIVERY_TIERS)[number];

/** One asset's deliveries in a window. */
export interface AssetDeliveries {
  asset_id: string;
  delivered_seconds: number;
  by_tier: Record<DeliveryTier, number>;
}

export interface DeliveryUsageFilter {
  window: DeliveryWindow;
  assetId?: string;
  liveStreamId?: string;
  limit: number;
  offset: number;
}

const TIER_SUMS = DELIVERY_TIERS.map((tier) => `sumIf(media_seconds, resolution_tier = '${tier}') AS tier_${tier}`).join(',\n  ');

/**
 * Delivered seconds per asset over the hourly buckets starting in the window, most delivered first
 * (ties by asset id, so pages are stable), only assets with more than 0 seconds; and how many such
 * assets there are. A live stream's are its recordings' (from the asset projection).
 */
@Injectable()
export class DeliveryUsageQuery {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  async page(filter: DeliveryUsageFilter): Promise<{ rows: AssetDeliveries[]; total: number }> {
    const { where, params } = whereOf(filter);
    const { rows, total } = await pageWithTotal<Record<string, number> & { asset_id: string }>(
      this.store,
      {
        columns: `asset_id, sum(media_seconds) AS delivered_seconds,\n  ${TIER_SUMS}`,
        from: `FROM delivery_usage_hourly WHERE ${where} GROUP BY asset_id HAVING delivered_seconds > 0`,
        orderBy: 'delivered_seconds DESC, asset_id',
      },
      params,
      { limit: filter.limit, offset: filter.offset },
    );
    return {
      rows: rows.map((r) => ({
        asset_id: r.asset_id,
        delivered_seconds: r.delivered_seconds,
        by_tier: Object.fromEntries(DELIVERY_TIERS.map((tier) => [tier, r[`tier_${tier}`]])) as Record<DeliveryTier, number>,
      })),
      total,
    };
  }
}

function whereOf(filter: DeliveryUsageFilter): { where: string; params: StoreParams } {
  const conditions = ["hour >= toDateTime({start:Int64}, 'UTC')", "hour < toDateTime({end:Int64}, 'UTC')"];
  const params: Record<string, string | number> = { start: filter.window.start, end: filter.window.end };
  if (filter.assetId !== undefined) {
    conditions.push('asset_id = {asset_id:String}');
    params.asset_id = filter.assetId;
  }
  if (filter.liveStreamId !== undefined) {
    conditions.push('asset_id IN (SELECT asset_id FROM delivery_assets FINAL WHERE live_stream_id = {live_stream_id:String})');
    params.live_stream_id = filter.liveStreamId;
  }
  return { where: conditions.join(' AND '), params };
}
