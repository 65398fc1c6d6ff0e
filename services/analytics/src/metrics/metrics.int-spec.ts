import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnalyticsStore } from '../clickhouse/analytics-store.port';
import { createAnalyticsStore } from '../clickhouse/create-analytics-store';
import { runStoreMigrations } from '../clickhouse/store-migrations';
import { VIEW_MIGRATIONS } from '../views/views.migrations';
import { ComparisonQuery } from './comparison.query';
import { MetricsQuery } from './metrics.query';
import { T0, generatedViews } from './testing/generated-views';

jest.setTimeout(60_000);

// Every expected number below is worked out by hand from the rules in testing/generated-views.ts.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-metrics-'));
const HOUR = 3600;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
type Filter = { dimension: string; value: string; negate: boolean };
const metric = (metric_id: string, extra: { measurement?: string; filters?: Filter[]; metric_filters?: unknown[]; start?: number; end?: number } = {}) => ({
  metric_id,
  measurement: extra.measurement,
  query: {
    timeframe: { start: extra.start ?? T0, end: extra.end ?? T0 + 3 * HOUR },
    filters: extra.filters ?? [],
    metric_filters: (extra.metric_filters ?? []) as never[],
  },
});

describe('metrics over generated views with known answers (chDB)', () => {
  let store: AnalyticsStore;
  let metrics: MetricsQuery;
  const overall = async (...args: Parameters<typeof metric>) => (await metrics.overall(metric(...args))).data as Record<string, number | null>;
  const breakdown = (id: string, extra: Record<string, unknown> = {}) =>
    metrics.breakdown({ metric: metric(id), group_by: 'browser', order_by: 'negative_impact', order_direction: 'desc', limit: 25, page: 1, ...extra });

  beforeAll(async () => {
    store = await createAnalyticsStore({ dataDir, clickhouseUrl: undefined });
    await runStoreMigrations(store, VIEW_MIGRATIONS);
    await store.command('TRUNCATE TABLE IF EXISTS views');
    await store.insert('views', generatedViews());
    metrics = new MetricsQuery(store);
  });

  afterAll(async () => {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('views, unique viewers and playing time: closed views only, with their totals', async () => {
    const views = await metrics.overall(metric('views'));
    expect(views.meta).toEqual({ aggregation: 'view_start' });
    // Σ watch = 60 000 × (1+…+12) = 4 680 000; playing = Σ over the 9 played views of (watch − 1000).
    expect(views.data).toEqual({ value: 12, total_views: 12, total_watch_time: 4_680_000, total_playing_time: 3_231_000, global_value: 12 });
    expect((await overall('unique_viewers')).value).toBe(5);
    expect((await overall('playing_time')).value).toBe(3_231_000);
    // 12 values, three of them 0: sorted, index ⌊0.5 · 12⌋ = 6 holds view 4's 5 min − 1 s.
    expect((await overall('playing_time', { measurement: 'median' })).value).toBe(299_000);
  });

  it('startup time in every measurement: the 9 views with a first frame (200…2200 ms)', async () => {
    // Sorted: 200 400 600 1000 1200 1400 1800 2000 2200; quantileExact takes the value at ⌊level · n⌋.
    const expected = { median: 1200, '95th': 2200, avg: 1200, count: 9, sum: 10_800 };
    for (const [measurement, value] of Object.entries(expected)) expect((await overall('video_startup_time', { measurement })).value).toBe(value);
    const startup = await metrics.overall(metric('video_startup_time'));
    expect(startup.meta).toEqual({ aggregation: 'view_end' });
    expect(startup.data).toMatchObject({ value: 1200, total_views: 9, total_watch_time: 3_240_000, total_playing_time: 3_231_000 });
  });

  it('shares, ratios and scores', async () => {
    expect((await overall('playback_failure_percentage')).value).toBeCloseTo(1 / 12, 12);
    expect((await overall('exits_before_video_start')).value).toBeCloseTo(2 / 12, 12);
    // Σ rebuffering 3 × 1000 ms over Σ watch time of the played views, 60 000 × 54 ms.
    expect((await overall('rebuffer_percentage')).value).toBeCloseTo(3000 / 3_240_000, 12);
    expect((await overall('rebuffer_percentage', { measurement: 'median' })).value).toBe(0);
    expect((await overall('rebuffer_frequency')).value).toBeCloseTo(3 / 54, 12);
    // (9 × 0.5 + (0+1+2+4+5+6+8+9+10)/100 + the failure's 0) / 10 views with a score.
    expect((await overall('viewer_experience_score')).value).toBeCloseTo(0.495, 12);
    expect((await overall('upscale_percentage')).value).toBeNull();
  });

  it('filters narrow the value; global_value stays the service-wide one', async () => {
    const de = await overall('video_startup_time', { filters: [{ dimension: 'country', value: 'DE', negate: false }] });
    expect([de.value, de.total_views, de.global_value]).toEqual([600, 5, 1200]);
    expect((await overall('video_startup_time', { filters: [{ dimension: 'country', value: 'DE', negate: true }] })).value).toBe(2000);
    expect((await overall('views', { metric_filters: [{ metric: 'video_startup_time', operator: '>=', value: 1000 }] })).value).toBe(6);
  });

  it('engagement windows on view_start, quality on view_end', async () => {
    // View 0 starts at T0 and ends at T0 + 300 s.
    expect((await overall('views', { start: T0 + 300 })).value).toBe(11);
    expect((await overall('video_startup_time', { start: T0 + 300, measurement: 'count' })).value).toBe(9);
  });

  it('breakdown by browser: medians, views, negative impact, order and paging', async () => {
    const reply = await breakdown('video_startup_time');
    expect(reply.total).toBe(3);
    // Chrome 200 1400 2000; Firefox 400 1000 2200; Safari 600 1200 1800; overall 1200 over 9 views.
    // Each group's watch time: 60 000 × 18 (i+1 = 1+7+10, 2+5+11, 3+6+9), minus 1000 a view playing.
    expect(reply.data).toEqual([
      { field: 'Chrome', value: 1400, views: 3, negative_impact: expect.closeTo(200 / 3, 9), total_watch_time: 1_080_000, total_playing_time: 1_077_000 },
      { field: 'Safari', value: 1200, views: 3, negative_impact: 0, total_watch_time: 1_080_000, total_playing_time: 1_077_000 },
      { field: 'Firefox', value: 1000, views: 3, negative_impact: expect.closeTo(-200 / 3, 9), total_watch_time: 1_080_000, total_playing_time: 1_077_000 },
    ]);
    const byField = await breakdown('video_startup_time', { order_by: 'field', order_direction: 'asc' });
    expect((byField.data as { field: string }[]).map((r) => r.field)).toEqual(['Chrome', 'Firefox', 'Safari']);
    const page2 = await breakdown('video_startup_time', { limit: 2, page: 2 });
    expect([(page2.data as { field: string }[]).map((r) => r.field), page2.total]).toEqual([['Firefox'], 3]);
    const past = await breakdown('video_startup_time', { limit: 2, page: 5 });
    expect([past.data, past.total]).toEqual([[], 3]);
    const byCountry = await breakdown('views', { group_by: 'country', order_by: 'views' });
    expect((byCountry.data as { field: string; value: number }[]).map((r) => [r.field, r.value])).toEqual([
      ['DE', 6],
      ['US', 6],
    ]);
  });

  it('timeseries: every interval, three strings each, granularity by rule 2 or group_by', async () => {
    const hourly = await metrics.timeseries({ metric: metric('views'), group_by: 'hour', order_direction: 'asc' });
    expect(hourly.meta).toEqual({ aggregation: 'view_start', granularity: 'hour' });
    expect(hourly.data).toEqual([
      [iso(T0), '6', '6'],
      [iso(T0 + HOUR), '6', '6'],
      [iso(T0 + 2 * HOUR), null, '0'],
    ]);
    const byDefault = await metrics.timeseries({ metric: metric('video_startup_time', { end: T0 + 2 * HOUR }), order_direction: 'asc' });
    expect(byDefault.meta.granularity).toBe('ten_minutes');
    const expected = Array.from({ length: 12 }, (_, i) => (i % 4 === 3 ? [iso(T0 + i * 600), null, '0'] : [iso(T0 + i * 600), String(200 * (i + 1)), '1']));
    expect(byDefault.data).toEqual(expected);
    const desc = await metrics.timeseries({ metric: metric('video_startup_time', { end: T0 + 2 * HOUR }), order_direction: 'desc' });
    expect(desc.data).toEqual([...expected].reverse());
  });

  it('insights: every basic-filter value as a group, worst negative impact first', async () => {
    const reply = await metrics.insights({ metric: metric('video_startup_time'), order_direction: 'desc' });
    const rows = reply.data as { filter_column: string; filter_value: string; metric: number; negative_impact_score: number }[];
    // 17 basic filters: browser 3 values, country 2, the other 15 one empty value each.
    expect(reply.total).toBe(20);
    // US: 1400 1800 2000 2200 → 2000, (2000 − 1200) × 4 / 9; watch 60 000 × (7+9+10+11), 1000 less a view playing.
    expect(rows[0]).toEqual({
      filter_column: 'country',
      filter_value: 'US',
      metric: 2000,
      negative_impact_score: expect.closeTo(3200 / 9, 9),
      total_views: 4,
      total_watch_time: 2_220_000,
      total_playing_time: 2_216_000,
    });
    expect(rows.slice(1, 2).map((r) => [r.filter_column, r.filter_value, r.metric])).toEqual([['browser', 'Chrome', 1400]]);
    // DE: 200 400 600 1000 1200 → 600, (600 − 1200) × 5 / 9, the least harmful.
    expect(rows.slice(-2).map((r) => [r.filter_value, r.metric, Number(r.negative_impact_score.toFixed(6))])).toEqual([
      ['Firefox', 1000, Number((-200 / 3).toFixed(6))],
      ['DE', 600, Number((-3000 / 9).toFixed(6))],
    ]);
    const asc = await metrics.insights({ metric: metric('video_startup_time'), order_direction: 'asc' });
    expect((asc.data as { filter_value: string }[])[0].filter_value).toBe('DE');
  });

  it('comparison for browser Chrome (views 0, 3, 6, 9): totals, then the groups', async () => {
    const entries = (await new ComparisonQuery(store).compare({ ...metric('views'), dimension: 'browser', value: 'Chrome' })) as Record<string, unknown>[];
    // Watch 60 000 × (1+4+7+10); viewers 0, 3, 1, 4.
    expect(entries[0]).toEqual({
      name: 'totals',
      watch_time: 1_320_000,
      view_count: 4,
      started_views: 4,
      ended_views: 4,
      unique_viewers: 4,
      total_playing_time: 1_077_000,
    });
    expect(entries[1]).toEqual({ value: 4, type: 'number', name: 'Views', metric: 'views' });
    expect(entries[2]).toMatchObject({ name: 'Overall Score', metric: 'viewer_experience_score', type: 'score', value: expect.closeTo(0.55, 12) });
    const item = (metricId: string, measurement?: string) =>
      entries.flatMap((e) => (e.items as Record<string, unknown>[] | undefined) ?? []).find((i) => i.metric === metricId && i.measurement === measurement)
        ?.value;
    expect([item('video_startup_time', 'median'), item('video_startup_time', '95th')]).toEqual([1400, 2000]);
    expect([item('exits_before_video_start'), item('playback_failure_percentage')]).toEqual([0.25, 0]);
    expect(item('rebuffer_percentage')).toBeCloseTo(1000 / 1_080_000, 12);
    expect([item('rebuffer_count', 'median'), item('rebuffer_count', '95th'), item('upscale_percentage', 'avg')]).toEqual([0, 1, null]);
    expect(entries.map((e) => e.name)).toEqual([
      'totals',
      'Views',
      'Overall Score',
      'Playback Failure Score',
      'Startup Time Score',
      'Rebuffer Score',
      'Video Quality Score',
    ]);
  });

  it('refuses a measurement the metric has no sense for, an unknown dimension, too many intervals', async () => {
    await expect(metrics.overall(metric('rebuffer_percentage', { measurement: 'sum' }))).rejects.toMatchObject({ code: 'INVALID_PARAMETERS' });
    await expect(breakdown('views', { group_by: 'colour' })).rejects.toThrow('group_by: colour is not a dimension');
    await expect(metrics.timeseries({ metric: metric('views', { start: T0 - 365 * 86_400 }), group_by: 'minute', order_direction: 'asc' })).rejects.toThrow(
      /choose a coarser one/,
    );
  });
});
