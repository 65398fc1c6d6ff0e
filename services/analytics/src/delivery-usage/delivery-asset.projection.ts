import { Inject, Injectable } from '@nestjs/common';
import { RegisteredEvent } from '@platform/events';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';

/** The lifecycle events that change what a usage record shows of its asset. */
export const DELIVERY_ASSET_EVENT_TYPES = [
  'video.asset.created',
  'video.asset.ready',
  'video.asset.errored',
  'video.asset.updated',
  'video.asset.deleted',
] as const;
export type DeliveryAssetEvent = RegisteredEvent<(typeof DELIVERY_ASSET_EVENT_TYPES)[number]>;

/** One asset's facts as a usage record shows them. */
export interface DeliveryAssetRow {
  asset_id: string;
  status: string;
  duration: number | null;
  resolution_tier: string | null;
  encoding_tier: string | null;
  video_quality: string | null;
  live_stream_id: string | null;
  passthrough: string | null;
  created_at: number;
  deleted_at: number | null;
}

/**
 * Keeps `delivery_assets` from the `video.asset.*` events: a row per event, versioned by its
 * occurred_at, so the latest wins whatever order they arrive in and a redelivered event changes
 * nothing. Kept in ClickHouse beside the usage it describes, so deleted assets still show.
 */
@Injectable()
export class DeliveryAssetProjection {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  async apply(event: DeliveryAssetEvent): Promise<void> {
    const asset = event.data;
    const occurredAt = Date.parse(event.occurred_at);
    const deleted = event.type === 'video.asset.deleted';
    const row: Record<string, unknown> & DeliveryAssetRow & { version: number } = {
      asset_id: event.object.id,
      version: occurredAt,
      status: deleted ? 'deleted' : asset.status,
      duration: asset.duration ?? null,
      resolution_tier: asset.resolution_tier ?? null,
      encoding_tier: asset.encoding_tier ?? null,
      video_quality: asset.video_quality ?? null,
      live_stream_id: asset.live_stream_id ?? null,
      passthrough: asset.passthrough ?? null,
      created_at: Number(asset.created_at),
      deleted_at: deleted ? Math.floor(occurredAt / 1000) : null,
    };
    await this.store.insert('delivery_assets', [row]);
  }

  /** The latest facts of these assets (those known), by asset id. */
  async find(assetIds: readonly string[]): Promise<Map<string, DeliveryAssetRow>> {
    if (assetIds.length === 0) return new Map();
    const rows = await this.store.query<DeliveryAssetRow>(
      `SELECT asset_id, status, duration, resolution_tier, encoding_tier, video_quality, live_stream_id, passthrough, created_at, deleted_at
       FROM delivery_assets FINAL WHERE asset_id IN {ids:Array(String)}`,
      { ids: assetIds },
    );
    return new Map(rows.map((r) => [r.asset_id, r]));
  }
}
