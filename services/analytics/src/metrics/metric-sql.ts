import { BASIC_FILTERS } from '@platform/api-rules';
import { analytics } from '@platform/proto';
import { DomainError } from '@platform/errors';
import { dimensionExpression } from '../data-api/view-expressions';
import { viewFilterSql } from '../data-api/view-filters-sql';
import { Measurement, MetricDefinition } from './metric-catalogue';

export interface MetricSql {
  sql: string;
  params: Record<string, string | number>;
}

export const GRANULARITY_SECONDS = { minute: 60, ten_minutes: 600, hour: 3_600, day: 86_400 } as const;
export type Granularity = keyof typeof GRANULARITY_SECONDS;

export const BREAKDOWN_ORDERS = { negative_impact: 'negative_impact', value: 'value', views: 'views', field: 'field' } as const;

/**
 * The metric's aggregate over the inner rows (`v` the per-view value, `rn`/`rd` a ratio's parts);
 * NULL when no view has a value (ClickHouse would give nan or 0).
 */
export function aggregateExpression(definition: MetricDefinition, measurement: Measurement): string {
  const aggregate = {
    count: definition.distinct ? 'uniqExact(v)' : 'count()',
    sum: 'sum(v)',
    avg: definition.ratio ? 'sum(rn) / nullIf(sum(rd), 0)' : 'avg(v)',
    median: 'quantileExact(0.5)(v)',
    '95th': 'quantileExact(0.95)(v)',
  }[measurement];
  return `if(count() = 0, NULL, toFloat64(${aggregate}))`;
}

/** The counted views of the query's window and filters, one row each: `v`, `wt`, `pt` (+ `rn`, `rd`, and `extra`). */
function countedViews(definition: MetricDefinition, query: analytics.DataQuery | undefined, extra: string[] = []): MetricSql {
  const filter = viewFilterSql(query, definition.basis);
  const columns = [`${definition.value} AS v`, 'ifNull(watch_time, 0) AS wt', 'ifNull(view_playing_time, 0) AS pt', ...extra];
  if (definition.ratio) columns.push(`ifNull(${definition.ratio.numerator}, 0) AS rn`, `ifNull(${definition.ratio.denominator}, 0) AS rd`);
  return { sql: `SELECT ${columns.join(', ')} FROM views FINAL WHERE ${filter.where} AND (${definition.counted})`, params: filter.params };
}

const TOTALS = 'count() AS views, sum(wt) AS total_watch_time, sum(pt) AS total_playing_time';

/** One row: `views`, `total_watch_time`, `total_playing_time`, `value`. */
export function overallSql(definition: MetricDefinition, measurement: Measurement, query: analytics.DataQuery | undefined): MetricSql {
  const inner = countedViews(definition, query);
  return { sql: `SELECT ${TOTALS}, ${aggregateExpression(definition, measurement)} AS value FROM (${inner.sql})`, params: inner.params };
}

export interface BreakdownOptions {
  dimension: string;
  orderBy: keyof typeof BREAKDOWN_ORDERS;
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/**
 * One row per dimension value: totals, value, and negative impact (ours: how much the group drags
 * the overall value the wrong way, weighted by its share of views), with `total_groups`. One scan:
 * the grouping set `()` gives the overall value and views the impact is measured against.
 */
export function breakdownSql(
  definition: MetricDefinition,
  measurement: Measurement,
  query: analytics.DataQuery | undefined,
  options: BreakdownOptions,
): MetricSql {
  const dimension = dimensionExpression(options.dimension);
  if (!dimension) throw DomainError.invalid(`group_by: ${options.dimension} is not a dimension`);
  const inner = countedViews(definition, query, [`ifNull(${dimension}, '') AS field`]);
  const direction = options.direction === 'asc' ? 'ASC' : 'DESC';
  const sql = `SELECT field, views, total_watch_time, total_playing_time, value,
         if(value IS NULL OR overall IS NULL, 0, (value - overall) * {bd_sign:Int8} * views / all_views) AS negative_impact,
         count() OVER () AS total_groups
  FROM (SELECT *, anyIf(value, whole) OVER () AS overall, anyIf(views, whole) OVER () AS all_views
        FROM (SELECT field, grouping(field) = 1 AS whole, ${TOTALS}, ${aggregateExpression(definition, measurement)} AS value
              FROM (${inner.sql}) GROUP BY GROUPING SETS ((field), ())))
  WHERE NOT whole
  ORDER BY ${BREAKDOWN_ORDERS[options.orderBy]} ${direction} NULLS LAST, views DESC, field ASC
  LIMIT {bd_limit:UInt32} OFFSET {bd_offset:UInt32}`;
  return { sql, params: { ...inner.params, bd_sign: worseSign(definition), bd_limit: options.limit, bd_offset: options.offset } };
}

/** One row per interval that has views: `t` (epoch seconds of its start), `views`, `value`. */
export function timeseriesSql(
  definition: MetricDefinition,
  measurement: Measurement,
  query: analytics.DataQuery | undefined,
  granularity: Granularity,
): MetricSql {
  const inner = countedViews(definition, query, [`toUnixTimestamp(toDateTime(${definition.basis}, 'UTC')) AS ts`]);
  const sql = `SELECT intDiv(ts, {ts_step:UInt32}) * {ts_step:UInt32} AS t, count() AS views, ${aggregateExpression(definition, measurement)} AS value
  FROM (${inner.sql}) GROUP BY t ORDER BY t`;
  return { sql, params: { ...inner.params, ts_step: GRANULARITY_SECONDS[granularity] } };
}

/** Insights look at these dimensions (spec 001 rule 3's basic filters): the ones a viewer's setup varies by. */
export const INSIGHT_DIMENSIONS = BASIC_FILTERS;
export const MAX_INSIGHTS = 100;

/**
 * Every value of every insight dimension as a group in one scan (arrayJoin), with the breakdown's
 * negative impact against the overall value, the worst (or, asc, the best) first.
 */
export function insightsSql(
  definition: MetricDefinition,
  measurement: Measurement,
  query: analytics.DataQuery | undefined,
  options: { direction: 'asc' | 'desc'; overall: number | null; totalViews: number },
): MetricSql {
  const pairs = INSIGHT_DIMENSIONS.map((name) => `tuple('${name}', toString(ifNull(${dimensionExpression(name)}, '')))`);
  const inner = countedViews(definition, query, [`arrayJoin([${pairs.join(', ')}]) AS d`]);
  const sign = impactSign(definition, options.overall, options.totalViews);
  const direction = options.direction === 'asc' ? 'ASC' : 'DESC';
  const sql = `SELECT filter_column, filter_value, views, total_watch_time, total_playing_time, value,
         if(value IS NULL, 0, (value - {in_overall:Float64}) * {in_sign:Int8} * views / {in_total:Float64}) AS negative_impact_score
  FROM (SELECT d.1 AS filter_column, d.2 AS filter_value, ${TOTALS}, ${aggregateExpression(definition, measurement)} AS value
        FROM (${inner.sql}) GROUP BY filter_column, filter_value)
  ORDER BY negative_impact_score ${direction}, views DESC, filter_column ASC, filter_value ASC
  LIMIT ${MAX_INSIGHTS}`;
  return { sql, params: { ...inner.params, in_overall: options.overall ?? 0, in_sign: sign, in_total: Math.max(options.totalViews, 1) } };
}

/** 1 when a higher value is worse, -1 when a lower one is, 0 for a metric with no worse side. */
function worseSign(definition: MetricDefinition): number {
  return definition.worse === null ? 0 : definition.worse === 'higher' ? 1 : -1;
}

function impactSign(definition: MetricDefinition, overall: number | null, totalViews: number): number {
  return overall === null || totalViews === 0 ? 0 : worseSign(definition);
}

/** Spec 001 rule 2: ≤ 6 h → ten_minutes; ≤ 15 days → hour; longer → day. */
export function defaultGranularity(timeframe: { start: number; end: number }): Granularity {
  const seconds = timeframe.end - timeframe.start;
  if (seconds <= 6 * 3_600) return 'ten_minutes';
  if (seconds <= 15 * 86_400) return 'hour';
  return 'day';
}
