import { Inject, Injectable } from '@nestjs/common';
import { MONITORING_HISTOGRAM_BUCKETS, MONITORING_STEP_SECONDS } from '@platform/api-rules';
import { analytics } from '@platform/proto';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { monitoringBreakdownSql, monitoringHistogramSql, monitoringTimeseriesSql } from './monitoring-sql';

interface BreakdownRow {
  t: number;
  value: string | null;
  concurrent_viewers: number;
  starting_up_viewers: number;
  metric_value: number | null;
  negative_impact: number;
}
type HistogramRow = { minute: number; sum: number; average: number | null; median: number | null; p95: number | null } & Record<string, number>;

const finite = (value: unknown): number | null => (value === null || value === undefined || !Number.isFinite(Number(value)) ? null : Number(value));
/** `2020-02-25T00:51:45Z`, as Mux prints monitoring instants. */
export const instantIso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

const breakdownValue = (row: BreakdownRow) => ({
  value: row.value,
  metric_value: finite(row.metric_value),
  negative_impact: finite(row.negative_impact) || 0, // no -0 for a metric with no worse side
  concurrent_viewers: Number(row.concurrent_viewers),
  starting_up_viewers: Number(row.starting_up_viewers),
});

/** Mux Data monitoring (the real-time API) over the views as their latest beacons left them. */
@Injectable()
export class MonitoringQuery {
  constructor(@Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore) {}

  /** The dimension's values at the instant `timeframe.start`, ordered. */
  async breakdown(request: analytics.MonitoringRequest): Promise<unknown[]> {
    const at = Number(request.timeframe?.start ?? 0);
    const { sql, params } = monitoringBreakdownSql({ ...request, timeframe: { start: at, end: at } });
    return (await this.store.query<BreakdownRow>(sql, params)).map(breakdownValue);
  }

  /** Every instant of the timeframe, MONITORING_STEP_SECONDS apart: the values kept by `limit`. */
  async breakdownTimeseries(request: analytics.MonitoringRequest): Promise<unknown[]> {
    const { sql, params } = monitoringBreakdownSql(request);
    const byInstant = new Map<number, ReturnType<typeof breakdownValue>[]>();
    for (const row of await this.store.query<BreakdownRow>(sql, params)) {
      const t = Number(row.t) / 1000;
      byInstant.set(t, [...(byInstant.get(t) ?? []), breakdownValue(row)]);
    }
    return instants(request).map((t) => ({
      date: instantIso(t),
      values: (byInstant.get(t) ?? []).map(({ negative_impact: _, ...value }) => value),
    }));
  }

  async timeseries(request: analytics.MonitoringRequest): Promise<unknown[]> {
    const { sql, params } = monitoringTimeseriesSql(request);
    const rows = await this.store.query<{ t: number; concurrent_viewers: number; value: number | null }>(sql, params);
    const byInstant = new Map(rows.map((row) => [Number(row.t) / 1000, row]));
    return instants(request).map((t) => {
      const row = byInstant.get(t);
      return { date: instantIso(t), value: row ? finite(row.value) : null, concurrent_viewers: row ? Number(row.concurrent_viewers) : 0 };
    });
  }

  /** One entry per minute of the timeframe (minutes without a first frame have zero counts). */
  async histogram(request: analytics.MonitoringRequest): Promise<unknown[]> {
    const { sql, params } = monitoringHistogramSql(request);
    const byMinute = new Map((await this.store.query<HistogramRow>(sql, params)).map((row) => [Number(row.minute), row]));
    const first = Math.floor(Number(request.timeframe!.start) / 60) * 60;
    const minutes = Array.from({ length: Math.ceil((Number(request.timeframe!.end) - first) / 60) }, (_, i) => first + i * 60);
    return minutes.map((minute) => {
      const row = byMinute.get(minute);
      const sum = row ? Number(row.sum) : 0;
      const bucket_values = MONITORING_HISTOGRAM_BUCKETS.map((_, i) => {
        const count = row ? Number(row[`b${i}`]) : 0;
        return { count, percentage: sum === 0 ? 0 : count / sum };
      });
      return {
        timestamp: instantIso(minute),
        sum,
        average: row ? finite(row.average) : null,
        median: row ? finite(row.median) : null,
        p95: row ? finite(row.p95) : null,
        max_percentage: Math.max(0, ...bucket_values.map((b) => b.percentage)),
        bucket_values,
      };
    });
  }
}

function instants(request: analytics.MonitoringRequest): number[] {
  const start = Number(request.timeframe?.start ?? 0);
  const end = Number(request.timeframe?.end ?? start);
  return Array.from({ length: Math.floor((end - start) / MONITORING_STEP_SECONDS) + 1 }, (_, i) => start + i * MONITORING_STEP_SECONDS);
}
