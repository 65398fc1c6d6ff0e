import { MONITORING_HISTOGRAM_BUCKETS, MONITORING_STEP_SECONDS, MonitoringMetricId } from '@platform/api-rules';
import { analytics } from '@platform/proto';
import { DomainError } from '@platform/errors';
import { dimensionExpression } from '../data-api/view-expressions';
import { dimensionFilterSql } from '../data-api/view-filters-sql';

export interface MonitoringSql {
  sql: string;
  params: Record<string, string | number>;
}

/** An open view is watched until this long after its last beacon (as the viewer counts read it). */
export const OPEN_VIEW_GRACE_MS = 60_000;
/** Failures and exits are read over the views active in the minute before each instant. */
export const RECENT_MS = 60_000;

/**
 * Each monitoring metric as an aggregate over (instant, view) rows, with its worse side. A row has
 * `live` (the view is being watched at the instant), `recent` (watched within the last minute) and
 * `ended_recent` (ended within it); values read the view's row as stored, i.e. its state so far.
 */
export const MONITORING_AGGREGATES: Readonly<Record<MonitoringMetricId, { value: string; worse: 'higher' | 'lower' | null }>> = {
  'current-concurrent-viewers': { value: 'toFloat64(countIf(live))', worse: null },
  'current-rebuffering-percentage': {
    value: 'sumIf(ifNull(buffering_duration, 0), live) / nullIf(sumIf(ifNull(watch_time, 0), live), 0)',
    worse: 'higher',
  },
  'current-average-bitrate': {
    value:
      'if(countIf(live AND weighted_average_bitrate IS NOT NULL) = 0, NULL, avgIf(weighted_average_bitrate, live AND weighted_average_bitrate IS NOT NULL))',
    worse: 'lower',
  },
  'exits-before-video-start': { value: 'countIf(ended_recent AND exit_before_video_start) / nullIf(countIf(ended_recent), 0)', worse: 'higher' },
  'playback-failure-percentage': { value: 'countIf(recent AND playback_failure) / nullIf(countIf(recent), 0)', worse: 'higher' },
  'video-startup-failure-percentage': { value: 'countIf(recent AND video_startup_failure) / nullIf(countIf(recent), 0)', worse: 'higher' },
};

const START_MS = 'toUnixTimestamp64Milli(view_start)';
const END_MS = `ifNull(toUnixTimestamp64Milli(view_end), toUnixTimestamp64Milli(last_beacon_at) + ${OPEN_VIEW_GRACE_MS})`;

/**
 * One row per view and instant (every MONITORING_STEP_SECONDS from `timeframe.start` to `.end`,
 * both included) for the views watched within a minute of it, with the flags and `field` (the
 * dimension's value, '' when absent).
 */
function instantRows(request: analytics.MonitoringRequest, dimension?: string): MonitoringSql {
  const timeframe = request.timeframe;
  if (!timeframe) throw DomainError.invalid('timestamp is required');
  const filters = dimensionFilterSql(request.filters ?? []);
  const field = dimension ? `, ifNull(${dimension}, '') AS field` : '';
  const sql = `SELECT toInt64(arrayJoin(range(toUInt32({mo_first:UInt32}), toUInt32({mo_last:UInt32}) + 1, ${MONITORING_STEP_SECONDS}))) * 1000 AS t,
         s <= t AND t < e AS live,
         live AND (time_to_first_frame IS NULL OR s + time_to_first_frame > t) AS starting,
         s <= t AND e > t - ${RECENT_MS} AS recent,
         view_end IS NOT NULL AND e <= t AND e > t - ${RECENT_MS} AS ended_recent,
         buffering_duration, watch_time, weighted_average_bitrate, exit_before_video_start, playback_failure, video_startup_failure${field}
  FROM (SELECT *, ${START_MS} AS s, ${END_MS} AS e FROM views FINAL
        WHERE view_start <= fromUnixTimestamp64Milli({mo_last_ms:Int64}, 'UTC')
          AND ifNull(view_end, last_beacon_at + toIntervalMillisecond(${OPEN_VIEW_GRACE_MS})) > fromUnixTimestamp64Milli({mo_first_ms:Int64}, 'UTC') - toIntervalMillisecond(${RECENT_MS})
          ${filters.clauses.map((c) => `AND ${c}`).join(' ')})`;
  return {
    sql,
    params: {
      ...filters.params,
      mo_first: timeframe.start,
      mo_last: timeframe.end,
      mo_first_ms: timeframe.start * 1000,
      mo_last_ms: timeframe.end * 1000,
    },
  };
}

function aggregateOf(metricId: string) {
  const aggregate = MONITORING_AGGREGATES[metricId as MonitoringMetricId];
  if (!aggregate) throw DomainError.invalid(`${metricId} is not a monitoring metric`);
  return aggregate;
}

function dimensionOf(name: string): string {
  const expression = dimensionExpression(name);
  if (!expression) throw DomainError.invalid(`dimension: ${name} is not a dimension`);
  return expression;
}

const worseSign = (worse: 'higher' | 'lower' | null) => (worse === null ? 0 : worse === 'higher' ? 1 : -1);

export const MONITORING_ORDERS = { negative_impact: 'negative_impact', value: 'metric_value', views: 'concurrent_viewers', field: 'value' } as const;

/**
 * Per dimension value at each instant: `concurrent_viewers`, `starting_up_viewers`, `metric_value`,
 * and negative impact (ours, as the historical breakdown's: how far the value sits on the worse side
 * of the all-values one, weighted by the value's share of the minute's views), ranked `rank` by the
 * order within the instant. The grouping set `(t)` gives each instant's overall value.
 */
export function monitoringBreakdownSql(request: analytics.MonitoringRequest): MonitoringSql {
  const aggregate = aggregateOf(request.metric_id);
  const rows = instantRows(request, dimensionOf(request.dimension));
  const orderBy = MONITORING_ORDERS[(request.order_by || 'negative_impact') as keyof typeof MONITORING_ORDERS];
  if (!orderBy) throw DomainError.invalid(`order_by: must be one of ${Object.keys(MONITORING_ORDERS).join(', ')}`);
  const direction = request.order_direction === 'asc' ? 'ASC' : 'DESC';
  const ranked = `SELECT t, nullIf(field, '') AS value, concurrent_viewers, starting_up_viewers, metric_value,
         if(metric_value IS NULL OR overall IS NULL OR all_recent = 0, 0, (metric_value - overall) * {mo_sign:Int8} * recent_views / all_recent) AS negative_impact
  FROM (SELECT *, anyIf(metric_value, whole) OVER (PARTITION BY t) AS overall, anyIf(recent_views, whole) OVER (PARTITION BY t) AS all_recent
        FROM (SELECT t, field, grouping(field) = 1 AS whole, countIf(live) AS concurrent_viewers, countIf(starting) AS starting_up_viewers,
                     countIf(recent) AS recent_views, toNullable(toFloat64(${aggregate.value})) AS metric_value
              FROM (${rows.sql}) GROUP BY GROUPING SETS ((t, field), (t))))
  WHERE NOT whole AND recent_views > 0`;
  const sql = `SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY t ORDER BY ${orderBy} ${direction} NULLS LAST, concurrent_viewers DESC, value ASC) AS rank
  FROM (${ranked})) WHERE rank <= {mo_limit:UInt32} ORDER BY t, rank`;
  return { sql, params: { ...rows.params, mo_sign: worseSign(aggregate.worse), mo_limit: request.limit > 0 ? request.limit : 1_000_000 } };
}

/** Per instant that has views: `t`, `concurrent_viewers`, `value`. */
export function monitoringTimeseriesSql(request: analytics.MonitoringRequest): MonitoringSql {
  const aggregate = aggregateOf(request.metric_id);
  const rows = instantRows(request);
  const sql = `SELECT t, countIf(live) AS concurrent_viewers, toNullable(toFloat64(${aggregate.value})) AS value
  FROM (${rows.sql}) GROUP BY t ORDER BY t`;
  return { sql, params: rows.params };
}

/**
 * Video startup time per minute of `timeframe`: the views whose first frame came in that minute,
 * counted per bucket of MONITORING_HISTOGRAM_BUCKETS, with their sum (count), average, median and 95th.
 */
export function monitoringHistogramSql(request: analytics.MonitoringRequest): MonitoringSql {
  const timeframe = request.timeframe;
  if (!timeframe) throw DomainError.invalid('timeframe is required');
  const filters = dimensionFilterSql(request.filters ?? []);
  const buckets = MONITORING_HISTOGRAM_BUCKETS.map(
    (b, i) => `countIf(time_to_first_frame >= ${b.start}${b.end === null ? '' : ` AND time_to_first_frame < ${b.end}`}) AS b${i}`,
  );
  const sql = `SELECT intDiv(${START_MS} + time_to_first_frame, 60000) * 60 AS minute, count() AS sum,
         avg(time_to_first_frame) AS average, quantileExact(0.5)(time_to_first_frame) AS median, quantileExact(0.95)(time_to_first_frame) AS p95,
         ${buckets.join(', ')}
  FROM views FINAL
  WHERE time_to_first_frame IS NOT NULL
    AND ${START_MS} + time_to_first_frame >= {mo_first_ms:Int64} AND ${START_MS} + time_to_first_frame < {mo_end_ms:Int64}
    ${filters.clauses.map((c) => `AND ${c}`).join(' ')}
  GROUP BY minute ORDER BY minute`;
  return { sql, params: { ...filters.params, mo_first_ms: timeframe.start * 1000, mo_end_ms: timeframe.end * 1000 } };
}
