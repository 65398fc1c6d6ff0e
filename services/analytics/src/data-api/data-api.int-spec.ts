import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnalyticsStore } from '../clickhouse/analytics-store.port';
import { createAnalyticsStore } from '../clickhouse/create-analytics-store';
import { runStoreMigrations } from '../clickhouse/store-migrations';
import { ClickHouseViewRepository } from '../views/clickhouse-view-repository';
import { UnresolvedPlaybackIds } from '../views/playback-id-resolver';
import { exitBeforeStartView, failedView, playedView } from '../views/testing/sample-views';
import { ViewBuilder } from '../views/view-builder';
import { DEFAULT_VIEWS_OPTIONS } from '../views/views.options';
import { VIEW_MIGRATIONS } from '../views/views.migrations';
import { DimensionValuesQuery } from './dimension-values.query';
import { ErrorsQuery } from './errors.query';
import { VideoViewsQuery } from './video-views.query';

jest.setTimeout(60_000);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-data-api-'));
const everything = { start: 0, end: 4_000_000_000 };
const query = (extra: Record<string, unknown> = {}) => ({ timeframe: everything, filters: [], metric_filters: [], ...extra });
const listRequest = (extra: Record<string, unknown> = {}) => ({ query: query(), limit: 25, page: 1, order_direction: 'desc', ...extra });

describe('Data API reads over the views the builder wrote (chDB)', () => {
  let store: AnalyticsStore;
  let views: VideoViewsQuery;

  beforeAll(async () => {
    store = await createAnalyticsStore({ dataDir, clickhouseUrl: undefined });
    await runStoreMigrations(store, VIEW_MIGRATIONS);
    for (const table of ['views', 'view_events']) await store.command(`TRUNCATE TABLE IF EXISTS ${table}`);
    const builder = new ViewBuilder(new ClickHouseViewRepository(store), new UnresolvedPlaybackIds(), DEFAULT_VIEWS_OPTIONS);
    const batches = [
      ...playedView('played'),
      ...failedView('failed'),
      ...exitBeforeStartView('ebvs'),
      ...failedView('failed-2', { player_error_code: 4, player_error_message: 'mediaError: bufferAppendError' }),
    ];
    for (const batch of batches) await builder.ingest(batch);
    views = new VideoViewsQuery(store);
  });

  afterAll(async () => {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists closed views newest first with the list shape and the total', async () => {
    const page = await views.list(listRequest());
    expect(page.total).toBe(4);
    expect(page.rows).toHaveLength(4);
    const played = page.rows.find((r) => (r as { id: string }).id === 'played');
    expect(played).toEqual({
      id: 'played',
      view_start: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      view_end: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      video_title: 'Big Buck Bunny',
      viewer_os_family: 'Linux',
      viewer_application_name: 'Chrome',
      country_code: 'DE',
      player_error_message: null,
      player_error_code: null,
      error_type_id: null,
      playback_failure: false,
      viewer_experience_score: expect.any(Number),
      watch_time: 212_800,
      total_row_count: 4,
    });
    const ends = page.rows.map((r) => Date.parse((r as { view_end: string }).view_end));
    expect([...ends].sort((a, b) => b - a)).toEqual(ends);
  });

  it('pages, filters by dimension (and its negation), by error and by metric', async () => {
    expect((await views.list(listRequest({ limit: 3, page: 2 }))).rows).toHaveLength(1);
    const failed = await views.list(listRequest({ error_id: 'any' }));
    expect(failed.rows.map((r) => (r as { id: string }).id).sort()).toEqual(['failed', 'failed-2']);
    const errorTypeId = (failed.rows[0] as { error_type_id: number }).error_type_id;
    expect((await views.list(listRequest({ error_id: String(errorTypeId) }))).total).toBe(1);
    expect((await views.list(listRequest({ query: query({ filters: [{ dimension: 'country', value: 'DE', negate: false }] }) }))).total).toBe(4);
    expect((await views.list(listRequest({ query: query({ filters: [{ dimension: 'country', value: 'DE', negate: true }] }) }))).total).toBe(0);
    expect((await views.list(listRequest({ query: query({ filters: [{ dimension: 'browser', value: 'Firefox', negate: false }] }) }))).total).toBe(0);
    const slowStart = await views.list(listRequest({ query: query({ metric_filters: [{ metric: 'video_startup_time', operator: '>=', value: 400 }] }) }));
    expect(slowStart.rows.map((r) => (r as { id: string }).id)).toEqual(['played']);
    expect((await views.list(listRequest({ viewer_id: 'user-42' }))).total).toBe(4);
    expect((await views.list(listRequest({ viewer_id: 'someone-else' }))).total).toBe(0);
  });

  it('a timeframe that ends before the views holds none of them', async () => {
    expect((await views.list(listRequest({ query: { ...query(), timeframe: { start: 0, end: 1_000_000 } } }))).total).toBe(0);
  });

  it('a view in detail: Mux field names, decimal strings where Mux has them, and its events', async () => {
    const view = (await views.get('played')) as Record<string, unknown> & { events: { name: string; event_time: number }[] };
    expect(view).toMatchObject({
      id: 'played',
      view_id: 'played',
      watch_time: 212_800,
      time_to_first_frame: 500,
      buffering_count: 1,
      exit_before_video_start: false,
    });
    expect(typeof view.view_playing_time).toBe('string');
    expect(Number(view.weighted_average_bitrate)).toBeCloseTo(1_714_285.7, 0);
    expect(view.events.map((e) => e.name)).toEqual([
      'playerready',
      'viewstart',
      'renditionchange',
      'playing',
      'hb',
      'renditionchange',
      'rebufferstart',
      'rebufferend',
      'seeking',
      'seeked',
      'playing',
      'pause',
      'viewend',
    ]);
    expect(view).not.toHaveProperty('version');
    await expect(views.get('no-such-view')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('errors: one row per error, its view count, share of views and last time seen', async () => {
    const errors = (await new ErrorsQuery(store).list(query())) as {
      player_error_code: string;
      count: number;
      percentage: number;
      message: string;
      code: number;
      last_seen: string;
    }[];
    expect(errors).toHaveLength(2);
    expect(errors.map((e) => e.player_error_code).sort()).toEqual(['2', '4']);
    for (const e of errors) {
      expect(e.count).toBe(1);
      expect(e.percentage).toBeCloseTo(0.25);
      expect(e.code).toBe(Number(e.player_error_code));
      expect(Date.parse(e.last_seen)).toBeGreaterThan(0);
    }
  });

  it('dimension values with their counts', async () => {
    const values = await new DimensionValuesQuery(store).list({ dimension: 'browser', query: query(), limit: 25, page: 1 });
    expect(values).toEqual({ rows: [{ value: 'Chrome', total_count: 4 }], total: 1 });
    const flags = await new DimensionValuesQuery(store).list({ dimension: 'exit_before_video_start', query: query(), limit: 25, page: 1 });
    expect(flags.rows).toEqual(expect.arrayContaining([{ value: 'true', total_count: 1 }]));
  });
});
