import { StoreMigration } from '../clickhouse/analytics-store.port';

/** How long deliveries are kept: the 90 days the API reports on, and a margin. */
const KEPT = 'INTERVAL 100 DAY';

/**
 * Every item of every delivery batch, as reported. Ordered by batch id: the consumer looks a batch
 * up before inserting it (its idempotency record), and one batch is one INSERT, so "its rows are
 * there" and "it was counted" are the same fact.
 */
const CREATE_DELIVERY_ITEMS = `CREATE TABLE IF NOT EXISTS delivery_items (
  batch_id String,
  reported_at DateTime64(3, 'UTC'),
  hour DateTime('UTC'),
  playback_id String,
  asset_id String,
  live_stream_id Nullable(String),
  resolution_tier LowCardinality(String),
  media_seconds Float64,
  bytes UInt64,
  segments UInt64
) ENGINE = MergeTree ORDER BY (batch_id, playback_id, resolution_tier) TTL hour + ${KEPT}`;

/** Delivered seconds per hour, asset and tier: what the API reads. Rows of a key are summed on merge; readers sum too. */
const CREATE_DELIVERY_USAGE_HOURLY = `CREATE TABLE IF NOT EXISTS delivery_usage_hourly (
  hour DateTime('UTC'),
  asset_id String,
  resolution_tier LowCardinality(String),
  media_seconds Float64,
  bytes UInt64,
  segments UInt64
) ENGINE = SummingMergeTree((media_seconds, bytes, segments)) ORDER BY (hour, asset_id, resolution_tier) TTL hour + ${KEPT}`;

/** Fills the hourly table from each insert into delivery_items, in the same statement. */
const CREATE_DELIVERY_USAGE_HOURLY_MV = `CREATE MATERIALIZED VIEW IF NOT EXISTS delivery_usage_hourly_mv TO delivery_usage_hourly AS
SELECT hour, asset_id, resolution_tier, media_seconds, bytes, segments FROM delivery_items`;

/**
 * The assets' facts a usage record shows, from the `video.asset.*` events: one row per asset and
 * event, the latest event (`version`: its occurred_at in ms) winning (read with FINAL). A deleted
 * asset keeps its row, with `deleted_at`.
 */
const CREATE_DELIVERY_ASSETS = `CREATE TABLE IF NOT EXISTS delivery_assets (
  asset_id String,
  version UInt64,
  status LowCardinality(String),
  duration Nullable(Float64),
  resolution_tier Nullable(String),
  encoding_tier Nullable(String),
  video_quality Nullable(String),
  live_stream_id Nullable(String),
  passthrough Nullable(String),
  created_at Int64,
  deleted_at Nullable(Int64)
) ENGINE = ReplacingMergeTree(version) ORDER BY asset_id`;

/** The delivery usage module's migrations (range 200–299). */
export const DELIVERY_USAGE_MIGRATIONS: readonly StoreMigration[] = [
  { version: 200, name: 'delivery_items', statements: [CREATE_DELIVERY_ITEMS] },
  { version: 201, name: 'delivery_usage_hourly', statements: [CREATE_DELIVERY_USAGE_HOURLY, CREATE_DELIVERY_USAGE_HOURLY_MV] },
  { version: 202, name: 'delivery_assets', statements: [CREATE_DELIVERY_ASSETS] },
];
