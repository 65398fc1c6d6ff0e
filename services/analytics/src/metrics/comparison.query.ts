import { Inject, Injectable } from '@nestjs/common';
import { analytics } from '@platform/proto';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { viewFilterSql } from '../data-api/view-filters-sql';
import { ComparisonItem, COMPARISON_LAYOUT } from './comparison-layout';
import { METRIC_CATALOGUE, Measurement, MetricDefinition } from './metric-catalogue';

/** The aggregate of one metric over the rows where it counts (-If combinators: one scan for all). */
export function conditionalAggregate(definition: MetricDefinition, measurement: Measurement): string {
  const counted = `(${definition.counted})`;
  const v = definition.value;
  const aggregate = {
    count: definition.distinct ? `uniqExactIf(${v}, ${counted})` : `countIf(${counted})`,
    sum: `sumIf(${v}, ${counted})`,
    avg: definition.ratio
      ? `sumIf(ifNull(${definition.ratio.numerator}, 0), ${counted}) / nullIf(sumIf(ifNull(${definition.ratio.denominator}, 0), ${counted}), 0)`
      : `avgIf(${v}, ${counted})`,
    median: `quantileExactIf(0.5)(${v}, ${counted})`,
    '95th': `quantileExactIf(0.95)(${v}, ${counted})`,
  }[measurement];
  return `if(countIf(${counted}) = 0, NULL, toFloat64(${aggregate}))`;
}

const finite = (value: unknown): number | null => (value === null || value === undefined || !Number.isFinite(Number(value)) ? null : Number(value));

/**
 * `GET /data/v1/metrics/comparison` (spec 001 §2.4): `totals`, then every metric group of the
 * layout for the views with `dimension` = `value`. Views started in the timeframe make
 * `started_views`, `unique_viewers` and the Views entry; the rest read the views that ended in it.
 */
@Injectable()
export class ComparisonQuery {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  async compare(request: analytics.MetricComparisonRequest): Promise<unknown[]> {
    const filters = [...(request.query?.filters ?? [])];
    if (request.dimension) filters.push({ dimension: request.dimension, value: request.value ?? '', negate: false });
    const query = { timeframe: request.query?.timeframe, filters, metric_filters: request.query?.metric_filters ?? [] };
    const started = viewFilterSql(query, 'view_start');
    const ended = viewFilterSql(query, 'view_end');
    const items = COMPARISON_LAYOUT.flatMap((group) => [group, ...(group.items ?? [])]).filter((item) => item.metric !== 'views');
    const columns = items.map((item, i) => `${conditionalAggregate(METRIC_CATALOGUE[item.metric], measurementOf(item))} AS m${i}`);
    const [[start], [end]] = await Promise.all([
      this.store.query<{ started_views: number; unique_viewers: number }>(
        `SELECT count() AS started_views, uniqExact(ifNull(viewer_user_id, mux_viewer_id)) AS unique_viewers FROM views FINAL WHERE ${started.where}`,
        started.params,
      ),
      this.store.query<Record<string, number | null>>(
        `SELECT count() AS ended_views, sum(ifNull(watch_time, 0)) AS total_watch_time, sum(ifNull(view_playing_time, 0)) AS total_playing_time, ${columns.join(', ')}
         FROM views FINAL WHERE ${ended.where}`,
        ended.params,
      ),
    ]);
    const values = new Map(items.map((item, i) => [item, finite(end[`m${i}`])]));
    const entry = (item: ComparisonItem) => ({
      value: item.metric === 'views' ? Number(start.started_views) : values.get(item),
      type: METRIC_CATALOGUE[item.metric].type,
      name: item.name,
      metric: item.metric,
      ...(item.measurement ? { measurement: item.measurement } : {}),
    });
    const totals = {
      name: 'totals',
      watch_time: Number(end.total_watch_time),
      view_count: Number(end.ended_views),
      started_views: Number(start.started_views),
      ended_views: Number(end.ended_views),
      unique_viewers: Number(start.unique_viewers),
      total_playing_time: Number(end.total_playing_time),
    };
    return [totals, ...COMPARISON_LAYOUT.map((group) => ({ ...entry(group), ...(group.items ? { items: group.items.map(entry) } : {}) }))];
  }
}

function measurementOf(item: ComparisonItem): Measurement {
  return item.measurement ?? METRIC_CATALOGUE[item.metric].defaultMeasurement;
}
