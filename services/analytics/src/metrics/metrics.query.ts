import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { analytics } from '@platform/proto';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { Measurement, MetricDefinition, measurementFor } from './metric-catalogue';
import { BREAKDOWN_ORDERS, GRANULARITY_SECONDS, Granularity, breakdownSql, defaultGranularity, insightsSql, overallSql, timeseriesSql } from './metric-sql';

interface TotalsRow {
  views: number;
  total_watch_time: number;
  total_playing_time: number;
  value: number | null;
}
interface BreakdownRow extends TotalsRow {
  field: string;
  negative_impact: number;
  total_groups: number;
}
interface InsightRow extends TotalsRow {
  filter_column: string;
  filter_value: string;
  negative_impact_score: number;
}
interface PointRow {
  t: number;
  views: number;
  value: number | null;
}

export interface MetricReply {
  data: unknown;
  total?: number;
  meta: analytics.MetricMeta;
}

/** More intervals than this in one timeseries is refused: ask for a coarser `group_by`. */
export const MAX_TIMESERIES_POINTS = 10_000;

const finite = (value: unknown): number | null => (value === null || value === undefined || !Number.isFinite(Number(value)) ? null : Number(value));

/** `GET /data/v1/metrics/{id}/overall|breakdown|timeseries` over the closed views (spec 001 §2.4). */
@Injectable()
export class MetricsQuery {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  async overall(request: analytics.MetricRequest): Promise<MetricReply> {
    const { definition, measurement } = resolve(request);
    const unfiltered = !request.query?.filters?.length && !request.query?.metric_filters?.length;
    const [totals, global] = await Promise.all([
      this.totals(definition, measurement, request.query),
      // without filters the global value is the value: one scan, not two
      unfiltered ? undefined : this.totals(definition, measurement, { timeframe: request.query?.timeframe, filters: [], metric_filters: [] }),
    ]);
    return {
      data: {
        value: totals.value,
        total_views: totals.views,
        total_watch_time: totals.total_watch_time,
        total_playing_time: totals.total_playing_time,
        global_value: (global ?? totals).value,
      },
      meta: { aggregation: definition.basis },
    };
  }

  async breakdown(request: analytics.MetricBreakdownRequest): Promise<MetricReply> {
    const { definition, measurement } = resolve(request.metric);
    if (!Object.hasOwn(BREAKDOWN_ORDERS, request.order_by)) throw DomainError.invalid(`order_by: must be one of ${Object.keys(BREAKDOWN_ORDERS).join(', ')}`);
    const limit = request.limit > 0 ? request.limit : 25;
    const page = request.page > 0 ? request.page : 1;
    const { sql, params } = breakdownSql(definition, measurement, request.metric?.query, {
      dimension: request.group_by,
      orderBy: request.order_by as keyof typeof BREAKDOWN_ORDERS,
      direction: request.order_direction === 'asc' ? 'asc' : 'desc',
      limit,
      offset: (page - 1) * limit,
    });
    const rows = await this.store.query<BreakdownRow>(sql, params);
    const data = rows.map((row) => ({
      field: row.field,
      value: finite(row.value),
      views: Number(row.views),
      negative_impact: finite(row.negative_impact) ?? 0,
      total_watch_time: Number(row.total_watch_time),
      total_playing_time: Number(row.total_playing_time),
    }));
    // Past the last page there is no row to carry the count: ask for it (rare).
    const total = rows.length > 0 ? Number(rows[0].total_groups) : page > 1 ? await this.groupCount(definition, measurement, request) : 0;
    return { data, total, meta: { aggregation: definition.basis } };
  }

  async timeseries(request: analytics.MetricTimeseriesRequest): Promise<MetricReply> {
    const { definition, measurement } = resolve(request.metric);
    const timeframe = request.metric?.query?.timeframe;
    if (!timeframe) throw DomainError.invalid('timeframe is required');
    const granularity = (request.group_by || defaultGranularity(timeframe)) as Granularity;
    if (!Object.hasOwn(GRANULARITY_SECONDS, granularity)) throw DomainError.invalid(`group_by: must be one of ${Object.keys(GRANULARITY_SECONDS).join(', ')}`);
    const step = GRANULARITY_SECONDS[granularity];
    const first = Math.floor(Number(timeframe.start) / step) * step;
    const count = Math.ceil((Number(timeframe.end) - first) / step);
    if (count > MAX_TIMESERIES_POINTS)
      throw DomainError.invalid(`group_by: ${granularity} gives ${count} intervals (at most ${MAX_TIMESERIES_POINTS}); choose a coarser one`);
    const { sql, params } = timeseriesSql(definition, measurement, request.metric?.query, granularity);
    const byStart = new Map((await this.store.query<PointRow>(sql, params)).map((row) => [Number(row.t), row]));
    const points = Array.from({ length: count }, (_, i) => {
      const start = first + i * step;
      const row = byStart.get(start);
      const value = row ? finite(row.value) : null;
      // Spec 001 §2.4: a point is three strings (the value null where no view had one).
      return [new Date(start * 1000).toISOString(), value === null ? null : String(value), String(row ? Number(row.views) : 0)];
    });
    if (request.order_direction === 'desc') points.reverse();
    return { data: points, total: points.length, meta: { aggregation: definition.basis, granularity } };
  }

  /** The worst groups over the insight dimensions (ours: at most MAX_INSIGHTS, by negative impact). */
  async insights(request: analytics.MetricInsightsRequest): Promise<MetricReply> {
    const { definition, measurement } = resolve(request.metric);
    const reference = await this.totals(definition, measurement, request.metric?.query);
    const direction = request.order_direction === 'asc' ? 'asc' : 'desc';
    const { sql, params } = insightsSql(definition, measurement, request.metric?.query, { direction, overall: reference.value, totalViews: reference.views });
    const data = (await this.store.query<InsightRow>(sql, params)).map((row) => ({
      filter_column: row.filter_column,
      filter_value: row.filter_value,
      metric: finite(row.value),
      negative_impact_score: finite(row.negative_impact_score) ?? 0,
      total_views: Number(row.views),
      total_watch_time: Number(row.total_watch_time),
      total_playing_time: Number(row.total_playing_time),
    }));
    return { data, total: data.length, meta: { aggregation: definition.basis } };
  }

  private async totals(definition: MetricDefinition, measurement: Measurement, query: analytics.DataQuery | undefined) {
    const { sql, params } = overallSql(definition, measurement, query);
    const [row] = await this.store.query<TotalsRow>(sql, params);
    return {
      value: finite(row?.value),
      views: Number(row?.views ?? 0),
      total_watch_time: Number(row?.total_watch_time ?? 0),
      total_playing_time: Number(row?.total_playing_time ?? 0),
    };
  }

  private async groupCount(definition: MetricDefinition, measurement: Measurement, request: analytics.MetricBreakdownRequest): Promise<number> {
    const { sql, params } = breakdownSql(definition, measurement, request.metric?.query, {
      dimension: request.group_by,
      orderBy: 'field',
      direction: 'asc',
      limit: 1,
      offset: 0,
    });
    const [row] = await this.store.query<BreakdownRow>(sql, params);
    return row ? Number(row.total_groups) : 0;
  }
}

function resolve(request: analytics.MetricRequest | undefined): { definition: MetricDefinition; measurement: Measurement } {
  const resolved = measurementFor(request?.metric_id ?? '', request?.measurement);
  if (typeof resolved === 'string') throw DomainError.invalid(resolved);
  return resolved;
}
