import { METRIC_IDS, MetricId, UNFILTERABLE_METRICS } from './data-vocabulary';

export const METRIC_FILTER_OPERATORS = ['>=', '<=', '>', '<', '=', '!='] as const;
export type MetricFilterOperator = (typeof METRIC_FILTER_OPERATORS)[number];

/** One `metric_filters[]` clause (spec 001 rule 1): `aggregate_startup_time>=1000`. */
export interface MetricFilter {
  metric: MetricId;
  operator: MetricFilterOperator;
  value: number;
}

const CLAUSE = /^([a-z_]+)(>=|<=|!=|>|<|=)(-?\d+(?:\.\d+)?)$/;
const METRICS = new Set<string>(METRIC_IDS);

/** Parses one `metric_filters[]` entry, or says why not. */
export function parseMetricFilter(raw: string): MetricFilter | string {
  const match = CLAUSE.exec(raw.replace(/\s+/g, ''));
  if (!match) return `${JSON.stringify(raw)} is not metric<op>number (op one of ${METRIC_FILTER_OPERATORS.join(' ')}), e.g. aggregate_startup_time>=1000`;
  const [, metric, operator, value] = match;
  if (!METRICS.has(metric) && !UNFILTERABLE_METRICS.includes(metric)) return `${JSON.stringify(metric)} is not a metric id`;
  if (UNFILTERABLE_METRICS.includes(metric)) return `${metric} cannot be used in metric_filters`;
  return { metric: metric as MetricId, operator: operator as MetricFilterOperator, value: Number(value) };
}
