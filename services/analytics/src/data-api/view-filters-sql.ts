import { analytics } from '@platform/proto';
import { StoreParams } from '../clickhouse/analytics-store.port';
import { DomainError } from '@platform/errors';
import { dimensionExpression, metricViewExpression } from './view-expressions';

/** A WHERE clause over `views FINAL` and its bound parameters. */
export interface ViewFilterSql {
  where: string;
  params: Record<string, string | number>;
}

const OPERATORS = new Set(['>=', '<=', '>', '<', '=', '!=']);

/**
 * The closed views whose `view_end` (or, for engagement metrics, `view_start`) lies in the
 * timeframe (spec 001: lists and QoE metrics read view end), narrowed by `filters[]` and
 * `metric_filters[]`. Every value is a bound parameter; only names from fixed tables (dimension
 * and metric expressions, operators) enter the text.
 */
export function viewFilterSql(query: analytics.DataQuery | undefined, basis: 'view_end' | 'view_start' = 'view_end'): ViewFilterSql {
  const timeframe = query?.timeframe;
  if (!timeframe) throw DomainError.invalid('timeframe is required');
  const column = basis === 'view_start' ? 'view_start' : 'view_end';
  const clauses = ['view_end IS NOT NULL', `${column} >= fromUnixTimestamp64Milli({tf_start:Int64})`, `${column} < fromUnixTimestamp64Milli({tf_end:Int64})`];
  const params: Record<string, string | number> = { tf_start: timeframe.start * 1000, tf_end: timeframe.end * 1000 };
  const filters = dimensionFilterSql(query?.filters ?? []);
  clauses.push(...filters.clauses);
  Object.assign(params, filters.params);
  (query?.metric_filters ?? []).forEach((filter, i) => {
    const expression = metricViewExpression(filter.metric);
    if (!expression || !OPERATORS.has(filter.operator)) throw DomainError.invalid(`${filter.metric}${filter.operator}${filter.value} is not a metric filter`);
    clauses.push(`${expression} ${filter.operator} {m${i}:Float64}`);
    params[`m${i}`] = filter.value;
  });
  return { where: clauses.join(' AND '), params };
}

/** `filters[]` as clauses over `views` (each value bound as `f<i>`). */
export function dimensionFilterSql(filters: analytics.DimensionFilter[]): { clauses: string[]; params: Record<string, string> } {
  const clauses: string[] = [];
  const params: Record<string, string> = {};
  filters.forEach((filter, i) => {
    const expression = dimensionExpression(filter.dimension);
    if (!expression) throw DomainError.invalid(`${filter.dimension} is not a dimension`);
    clauses.push(`ifNull(${expression}, '') ${filter.negate ? '!=' : '='} {f${i}:String}`);
    params[`f${i}`] = filter.value;
  });
  return { clauses, params };
}

export function withParams(base: ViewFilterSql, extra: StoreParams): Record<string, string | number> {
  return { ...base.params, ...(extra as Record<string, string | number>) };
}
