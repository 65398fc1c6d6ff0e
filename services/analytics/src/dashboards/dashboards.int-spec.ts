import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnalyticsStore } from '../clickhouse/analytics-store.port';
import { createAnalyticsStore } from '../clickhouse/create-analytics-store';
import { runStoreMigrations } from '../clickhouse/store-migrations';
import { DELIVERY_USAGE_MIGRATIONS } from '../delivery-usage/delivery-usage.migrations';
import { VIEW_MIGRATIONS } from '../views/views.migrations';
import { deliveryAssets, deliveryItems, liveViews, onDemandViews, RANGE_FROM, RANGE_TO } from './testing/dashboard-data';
import { Dashboard, DashboardVariable, loadDashboards } from './testing/dashboard-files';
import { expandGrafanaSql } from './testing/grafana-macros';

/**
 * Every panel's SQL of every shipped dashboard, run on embedded ClickHouse (chDB) over a generated
 * data set after expanding Grafana's variables and the plugin's macros: a dashboard cannot ship a
 * query that fails, returns other columns, or (for the figures checked) other numbers.
 */
jest.setTimeout(120_000);

const HOUR = 3_600_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboards-'));
const NOW = Date.now();
const dashboards = loadDashboards();

/** Columns each panel returns, by dashboard uid and panel title: a new panel needs an entry. */
const COLUMNS: Record<string, Record<string, string[]>> = {
  'vp-overview': {
    Views: ['views'],
    'Unique viewers': ['unique_viewers'],
    'Playing time (total)': ['playing_time'],
    'Playing time per view': ['playing_time_per_view'],
    'Views and unique viewers': ['time', 'views', 'unique_viewers'],
    'Playing time': ['time', 'playing_time'],
    'Top videos': ['video', 'views', 'unique_viewers', 'playing_time'],
    'Views by stream type': ['stream_type', 'views'],
  },
  'vp-qoe': {
    'Viewer experience score': ['viewer_experience_score'],
    'Video startup time (median)': ['video_startup_time'],
    'Rebuffer percentage': ['rebuffer_percentage'],
    'Playback failure percentage': ['playback_failure_percentage'],
    'Video startup time': ['time', 'median', 'p95'],
    Rebuffering: ['time', 'rebuffer_percentage'],
    'Playback failures': ['time', 'playback_failures', 'startup_failures', 'exits_before_video_start'],
    Scores: ['time', 'viewer_experience', 'playback_success', 'startup', 'smoothness', 'video_quality'],
    'Scores by ${dimension}': [
      'value',
      'views',
      'viewer_experience',
      'playback_success',
      'startup',
      'smoothness',
      'video_quality',
      'startup_time_median',
      'rebuffer_percentage',
      'playback_failure_percentage',
    ],
    Errors: ['error_type_id', 'code', 'message', 'views', 'playback_failures', 'last_seen'],
  },
  'vp-live': {
    'Concurrent views (live streams)': ['views'],
    'Concurrent viewers (live streams)': ['viewers'],
    'Open views with an error': ['views_with_error'],
    'Concurrent viewers per live stream': ['live_stream_id', 'views', 'viewers', 'last_beacon'],
    'Concurrent views per live stream': ['time', 'live_stream_id', 'views'],
    'Errors on live streams': ['time', 'playback_failures', 'other_errors'],
    'Latest errors on live streams': ['live_stream_id', 'code', 'message', 'severity', 'views', 'last_seen'],
  },
  'vp-delivery-usage': {
    Delivered: ['delivered_seconds'],
    'Bytes delivered': ['bytes'],
    'Assets delivered': ['assets'],
    'Delivered seconds per hour': ['time', 'delivered_seconds'],
    'Delivered seconds per hour by tier': ['time', 'resolution_tier', 'delivered_seconds'],
    'By resolution tier': ['resolution_tier', 'delivered_seconds'],
    'Top assets': ['asset_id', 'delivered_seconds', 'bytes', 'passthrough', 'asset_duration', 'deleted'],
  },
};

/** The live dashboard looks at the last hour; the others at the generated day (hourly buckets). */
const timeRange = (uid: string) =>
  uid === 'vp-live' ? { from: new Date(NOW - HOUR), to: new Date(NOW), intervalSeconds: 60 } : { from: RANGE_FROM, to: RANGE_TO, intervalSeconds: 3600 };

/** What Grafana substitutes for a variable's selected value ($__all → allValue). */
const valueOf = (v: DashboardVariable, selected: string) => (selected === '$__all' ? v.allValue! : selected);
const sqlVariables = (d: Dashboard) => d.templating.list.filter((v) => v.type !== 'datasource');
const defaults = (d: Dashboard) => Object.fromEntries(sqlVariables(d).map((v) => [v.name, valueOf(v, v.current.value)]));

/** Each variable's other values, one at a time: custom options, and a real value of a query variable. */
const variants = (d: Dashboard) =>
  sqlVariables(d).flatMap((v) => {
    const values = v.type === 'custom' ? v.options!.map((o) => o.value) : ['env-a'];
    return values.filter((value) => value !== defaults(d)[v.name]).map((value) => ({ ...defaults(d), [v.name]: value }));
  });

const panelsOf = (uid: string) => dashboards.find((d) => d.dashboard.uid === uid)!.dashboard.panels;

describe('Grafana dashboards (charts/video-platform/dashboards)', () => {
  let store: AnalyticsStore;

  const run = async (uid: string, title: string, variables?: Record<string, string>) => {
    const { dashboard } = dashboards.find((d) => d.dashboard.uid === uid)!;
    const panel = dashboard.panels.find((p) => p.title === title)!;
    return store.query(expandGrafanaSql(panel.targets[0].rawSql, { ...timeRange(uid), variables: variables ?? defaults(dashboard) }));
  };

  beforeAll(async () => {
    store = await createAnalyticsStore({ dataDir, clickhouseUrl: undefined });
    await runStoreMigrations(store, [...VIEW_MIGRATIONS, ...DELIVERY_USAGE_MIGRATIONS]);
    await store.insert('views', [...onDemandViews(), ...liveViews(NOW)]);
    await store.insert('delivery_items', deliveryItems());
    await store.insert('delivery_assets', deliveryAssets());
  });

  afterAll(async () => {
    await store?.close();
  });

  it('ships the four dashboards, each panel on the ClickHouse plugin through the $ds variable with one SQL target', () => {
    expect(dashboards.map((d) => d.dashboard.uid).sort()).toEqual(Object.keys(COLUMNS).sort());
    for (const { dashboard } of dashboards) {
      expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
      expect(dashboard.templating.list[0]).toMatchObject({ name: 'ds', type: 'datasource', query: 'grafana-clickhouse-datasource' });
      const ids = dashboard.panels.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(dashboard.panels.map((p) => p.title).sort()).toEqual(Object.keys(COLUMNS[dashboard.uid]).sort());
      for (const panel of dashboard.panels) {
        expect(panel.datasource).toEqual({ type: 'grafana-clickhouse-datasource', uid: '${ds}' });
        expect(panel.gridPos.w).toBeGreaterThan(0);
        expect(panel.targets).toHaveLength(1);
        expect(panel.targets[0]).toMatchObject({ refId: 'A', datasource: panel.datasource, editorType: 'sql', rawSql: expect.any(String) });
        // Time series need a time column; tables must not be sent as time series.
        expect(panel.targets[0].format).toBe(panel.type === 'timeseries' ? 0 : 1);
      }
    }
  });

  describe.each(dashboards.map((d) => [d.file, d.dashboard] as const))('%s', (_file, dashboard) => {
    it.each(dashboard.panels.map((p) => [p.title] as const))('"%s" runs and returns its columns', async (title) => {
      const rows = await run(dashboard.uid, title);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(Object.keys(row)).toEqual(COLUMNS[dashboard.uid][title]);
    });

    it('every panel runs with every other value of each variable', async () => {
      for (const variables of variants(dashboard)) {
        for (const panel of dashboard.panels) {
          const rows = await run(dashboard.uid, panel.title, variables);
          for (const row of rows) expect(Object.keys(row)).toEqual(COLUMNS[dashboard.uid][panel.title]);
        }
      }
    });

    it('its query variables run', async () => {
      for (const v of dashboard.templating.list.filter((x) => x.type === 'query')) {
        const rows = await store.query(expandGrafanaSql(v.query, { ...timeRange(dashboard.uid), variables: {} }));
        expect(rows.length).toBeGreaterThan(0);
      }
    });
  });

  it('overview: views, unique viewers and playing time of completed views, FINAL rows only', async () => {
    expect(await run('vp-overview', 'Views')).toEqual([{ views: 44 }]);
    expect(await run('vp-overview', 'Unique viewers')).toEqual([{ unique_viewers: 10 }]);
    // 8 × (1 + 2 + 3 + 4 + 5) min of the 40 played views.
    expect(await run('vp-overview', 'Playing time (total)')).toEqual([{ playing_time: 7200 }]);
    expect(await run('vp-overview', 'Views', { environment: 'env-a' })).toEqual([{ views: 20 }]);
    const perHour = await run('vp-overview', 'Views and unique viewers');
    expect(perHour[0]).toEqual({ time: '2026-11-20 00:00:00', views: 2, unique_viewers: 2 });
    expect(perHour.reduce((n, r) => n + (r.views as number), 0)).toBe(44);
    expect((await run('vp-overview', 'Top videos'))[0]).toEqual({ video: 'Video 0', views: 10, unique_viewers: 5, playing_time: 1800 });
  });

  it('quality of experience: startup median and 95th, rebuffering, failures, scores by dimension', async () => {
    // Startup 500..1400 ms, each 4 times; quantileExact takes the value at ⌊n·level⌋ of 40.
    expect(await run('vp-qoe', 'Video startup time (median)')).toEqual([{ video_startup_time: 1000 }]);
    const startup = await run('vp-qoe', 'Video startup time');
    expect(startup.length).toBeGreaterThan(1);
    // 20 s of rebuffering over 40 × 10 min watched.
    expect((await run('vp-qoe', 'Rebuffer percentage'))[0].rebuffer_percentage).toBeCloseTo(20_000 / 24_000_000, 12);
    expect((await run('vp-qoe', 'Playback failure percentage'))[0].playback_failure_percentage).toBeCloseTo(4 / 44, 12);
    expect((await run('vp-qoe', 'Viewer experience score'))[0].viewer_experience_score).toBeCloseTo(32 / 44, 12);
    const byBrowser = await run('vp-qoe', 'Scores by ${dimension}');
    expect(byBrowser.map((r) => [r.value, r.views])).toEqual([
      ['Chrome', 14],
      ['Edge', 10],
      ['Firefox', 10],
      ['Safari', 10],
    ]);
    expect(byBrowser[0].playback_failure_percentage).toBeCloseTo(4 / 14, 12);
    const byAsset = await run('vp-qoe', 'Scores by ${dimension}', { environment: '__all', dimension: 'asset_id' });
    expect(byAsset.map((r) => r.value)).toEqual(['asset-0', 'asset-1', 'asset-2', 'asset-3', 'asset-9']);
    expect(await run('vp-qoe', 'Errors')).toEqual([
      { error_type_id: 42, code: '2', message: 'manifest load error', views: 4, playback_failures: 4, last_seen: '2026-11-20 21:16:00.000' },
    ]);
  });

  it('live: open views with a recent beacon per live stream, and their errors', async () => {
    expect(await run('vp-live', 'Concurrent views (live streams)')).toEqual([{ views: 4 }]);
    expect(await run('vp-live', 'Concurrent viewers (live streams)')).toEqual([{ viewers: 3 }]);
    expect((await run('vp-live', 'Concurrent viewers per live stream')).map((r) => [r.live_stream_id, r.views, r.viewers])).toEqual([
      ['ls-1', 3, 2],
      ['ls-2', 1, 1],
    ]);
    const overTime = await run('vp-live', 'Concurrent views per live stream');
    expect(Math.max(...overTime.filter((r) => r.live_stream_id === 'ls-1').map((r) => r.views as number))).toBe(3);
    // ls-2: the silent and the closed view overlapped 30 to 25 min ago, and later the open one.
    expect(Math.max(...overTime.filter((r) => r.live_stream_id === 'ls-2').map((r) => r.views as number))).toBe(2);
    expect(await run('vp-live', 'Latest errors on live streams')).toEqual([
      expect.objectContaining({ live_stream_id: 'ls-1', code: '3', severity: 'warning', views: 1 }),
    ]);
  });

  it('delivery usage: seconds per hour, by tier, top assets with the latest asset facts', async () => {
    expect(await run('vp-delivery-usage', 'Delivered')).toEqual([{ delivered_seconds: 200 }]);
    expect(await run('vp-delivery-usage', 'Delivered', { tier: '1080p' })).toEqual([{ delivered_seconds: 150 }]);
    expect(await run('vp-delivery-usage', 'Delivered seconds per hour')).toEqual([
      { time: '2026-11-20 00:00:00', delivered_seconds: 130 },
      { time: '2026-11-20 01:00:00', delivered_seconds: 50 },
      { time: '2026-11-20 02:00:00', delivered_seconds: 20 },
    ]);
    expect(await run('vp-delivery-usage', 'By resolution tier')).toEqual([
      { resolution_tier: '1080p', delivered_seconds: 150 },
      { resolution_tier: '720p', delivered_seconds: 30 },
      { resolution_tier: 'audio_only', delivered_seconds: 20 },
    ]);
    expect(await run('vp-delivery-usage', 'Top assets')).toEqual([
      { asset_id: 'asset-0', delivered_seconds: 150, bytes: 150_000, passthrough: 'zero', asset_duration: 60, deleted: false },
      { asset_id: 'asset-1', delivered_seconds: 50, bytes: 50_000, passthrough: 'one', asset_duration: 30, deleted: true },
    ]);
    expect(panelsOf('vp-delivery-usage').length).toBe(7);
  });
});
