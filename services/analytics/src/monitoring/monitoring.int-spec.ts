import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnalyticsStore } from '../clickhouse/analytics-store.port';
import { createAnalyticsStore } from '../clickhouse/create-analytics-store';
import { runStoreMigrations } from '../clickhouse/store-migrations';
import { formatDateTime64 } from '../views/view-row';
import { VIEW_MIGRATIONS } from '../views/views.migrations';
import { MonitoringQuery } from './monitoring.query';

jest.setTimeout(60_000);

/** A whole minute (2026-11-27 00:00 UTC): the instant every figure below is read at. */
const T = 1_795_737_600;
const at = (seconds: number) => formatDateTime64((T + seconds) * 1000);
const iso = (seconds: number) => new Date((T + seconds) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Six views around T (seconds relative to T; an open view is watched until 60 s after its last beacon):
 * - A DE open, start −100, last beacon −10 (watched to +50), first frame after 1.5 s, 2 s rebuffering of 90 s, 2 Mb/s
 * - B US open, start −5, last beacon −1, no first frame yet (starting up), 5 s watched
 * - C US ended −30, start −200, first frame 0.8 s, a playback failure
 * - D DE ended −40, start −300, exited before the video started
 * - E DE ended −120 (not in T's last minute), start −600, first frame 0.3 s
 * - F open, start −400, last beacon −200 (gone at −140), first frame 12 s
 */
function views(): Record<string, unknown>[] {
  const view = (id: string, country: string, start: number, end: number | null, lastBeacon: number, extra: Record<string, unknown>) => ({
    view_id: id,
    view_start: at(start),
    view_end: end === null ? null : at(end),
    last_beacon_at: at(lastBeacon),
    inserted_at: at(start),
    updated_at: at(lastBeacon),
    version: 1,
    event_count: 1,
    country_code: country,
    ...extra,
  });
  return [
    view('A', 'DE', -100, null, -10, { time_to_first_frame: 1500, buffering_duration: 2000, watch_time: 90_000, weighted_average_bitrate: 2_000_000 }),
    view('B', 'US', -5, null, -1, { watch_time: 5000, buffering_duration: 0 }),
    view('C', 'US', -200, -30, -30, { time_to_first_frame: 800, watch_time: 170_000, playback_failure: true }),
    view('D', 'DE', -300, -40, -40, { watch_time: 260_000, exit_before_video_start: true }),
    view('E', 'DE', -600, -120, -120, { time_to_first_frame: 300, watch_time: 480_000 }),
    view('F', 'GB', -400, null, -200, { time_to_first_frame: 12_000, watch_time: 200_000 }),
  ];
}

const request = (metric_id: string, start: number, end: number, extra: Record<string, unknown> = {}) => ({
  metric_id,
  filters: [],
  dimension: '',
  order_by: '',
  order_direction: '',
  timeframe: { start: T + start, end: T + end },
  limit: 0,
  ...extra,
});

describe('monitoring (the real-time API) over hand-placed views (chDB)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-monitoring-'));
  let store: AnalyticsStore;
  let monitoring: MonitoringQuery;

  beforeAll(async () => {
    store = await createAnalyticsStore({ dataDir, clickhouseUrl: undefined });
    await runStoreMigrations(store, VIEW_MIGRATIONS);
    await store.insert('views', views());
    monitoring = new MonitoringQuery(store);
  });

  afterAll(async () => {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('concurrent viewers every 5 s: A alone at −10, A and B from −5 (B starting up)', async () => {
    expect(await monitoring.timeseries(request('current-concurrent-viewers', -10, 0))).toEqual([
      { date: iso(-10), value: 1, concurrent_viewers: 1 },
      { date: iso(-5), value: 2, concurrent_viewers: 2 },
      { date: iso(0), value: 2, concurrent_viewers: 2 },
    ]);
    const us = [{ dimension: 'country', value: 'US', negate: false }];
    expect(await monitoring.timeseries(request('current-concurrent-viewers', 0, 0, { filters: us }))).toEqual([
      { date: iso(0), value: 1, concurrent_viewers: 1 },
    ]);
  });

  it.each([
    // A and B live: (2000 + 0) / (90 000 + 5 000)
    ['current-rebuffering-percentage', 2000 / 95_000],
    // only A has a bitrate
    ['current-average-bitrate', 2_000_000],
    // ended in the last minute: C and D, D exited
    ['exits-before-video-start', 0.5],
    // watched in the last minute: A, B, C, D; C failed
    ['playback-failure-percentage', 0.25],
    ['video-startup-failure-percentage', 0],
  ])('%s at T = %d', async (metric, value) => {
    const [point] = (await monitoring.timeseries(request(metric, 0, 0))) as { value: number }[];
    expect(point.value).toBeCloseTo(value, 12);
  });

  it('breakdown by country at T: each value with viewers, starting-up viewers, value and negative impact', async () => {
    const rows = await monitoring.breakdown(
      request('playback-failure-percentage', 0, 0, { dimension: 'country', order_by: 'negative_impact', order_direction: 'desc' }),
    );
    // overall 1/4 over 4 recent views; US: C failed of B, C → 0.5, impact (0.5 − 0.25) · 2/4; DE: A, D → 0, impact −0.125
    expect(rows).toEqual([
      { value: 'US', metric_value: 0.5, negative_impact: 0.125, concurrent_viewers: 1, starting_up_viewers: 1 },
      { value: 'DE', metric_value: 0, negative_impact: -0.125, concurrent_viewers: 1, starting_up_viewers: 0 },
    ]);
    const byField = await monitoring.breakdown(
      request('current-concurrent-viewers', 0, 0, { dimension: 'country', order_by: 'field', order_direction: 'asc' }),
    );
    expect(byField).toEqual([
      { value: 'DE', metric_value: 1, negative_impact: 0, concurrent_viewers: 1, starting_up_viewers: 0 },
      { value: 'US', metric_value: 1, negative_impact: 0, concurrent_viewers: 1, starting_up_viewers: 1 },
    ]);
  });

  it('breakdown timeseries: every instant, the top `limit` values', async () => {
    const series = await monitoring.breakdownTimeseries(
      request('current-concurrent-viewers', -10, -5, { dimension: 'country', order_by: 'views', order_direction: 'desc', limit: 1 }),
    );
    expect(series).toEqual([
      // at −10 only A (DE) and, in the last minute, C and D
      { date: iso(-10), values: [{ value: 'DE', metric_value: 1, concurrent_viewers: 1, starting_up_viewers: 0 }] },
      // at −5 DE and US have one viewer each: the tie goes to the first value
      { date: iso(-5), values: [{ value: 'DE', metric_value: 1, concurrent_viewers: 1, starting_up_viewers: 0 }] },
    ]);
  });

  it('startup histogram per minute: each first frame in the minute it came, in its bucket', async () => {
    const minutes = (await monitoring.histogram(request('video-startup-time', -600, 0))) as Array<Record<string, unknown>>;
    expect(minutes.map((m) => m.timestamp)).toEqual(Array.from({ length: 10 }, (_, i) => iso(-600 + i * 60)));
    const one = (bucket: number, ms: number) => ({
      sum: 1,
      average: ms,
      median: ms,
      p95: ms,
      max_percentage: 1,
      bucket_values: Array.from({ length: 7 }, (_, i) => ({ count: i === bucket ? 1 : 0, percentage: i === bucket ? 1 : 0 })),
    });
    expect(minutes[0]).toMatchObject(one(1, 300)); // E at −599.7 s: 300 ms in [100, 500)
    expect(minutes[3]).toMatchObject(one(6, 12_000)); // F at −388 s: 12 s in [10 000, ∞)
    expect(minutes[6]).toMatchObject(one(2, 800)); // C at −199.2 s
    expect(minutes[8]).toMatchObject(one(3, 1500)); // A at −98.5 s
    expect(minutes[1]).toMatchObject({ sum: 0, average: null, median: null, p95: null, max_percentage: 0 });
  });
});
