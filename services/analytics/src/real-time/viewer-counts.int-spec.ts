import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnalyticsStore } from '../clickhouse/analytics-store.port';
import { createAnalyticsStore } from '../clickhouse/create-analytics-store';
import { runStoreMigrations } from '../clickhouse/store-migrations';
import { formatDateTime64 } from '../views/view-row';
import { VIEW_MIGRATIONS } from '../views/views.migrations';
import { ViewerCountsQuery } from './viewer-counts.query';

jest.setTimeout(60_000);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-viewer-counts-'));
const NOW = Date.parse('2026-11-27T12:00:00Z');

function view(id: string, lastBeaconAgoMs: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const last = formatDateTime64(NOW - lastBeaconAgoMs);
  return {
    view_id: id,
    view_start: formatDateTime64(NOW - 600_000),
    view_end: null,
    last_beacon_at: last,
    inserted_at: last,
    updated_at: last,
    version: 1,
    event_count: 1,
    asset_id: 'asset-1',
    playback_id: 'pb-1',
    ...extra,
  };
}

describe('ViewerCountsQuery (chDB)', () => {
  let store: AnalyticsStore;
  let counts: ViewerCountsQuery;

  beforeAll(async () => {
    store = await createAnalyticsStore({ dataDir, clickhouseUrl: undefined });
    await runStoreMigrations(store, VIEW_MIGRATIONS);
    await store.command('TRUNCATE TABLE IF EXISTS views');
    await store.insert('views', [
      view('open-a', 5_000, { mux_viewer_id: 'cookie-1' }),
      view('open-b', 20_000, { mux_viewer_id: 'cookie-1' }),
      view('open-c', 59_000, { mux_viewer_id: 'cookie-2', viewer_user_id: 'user-9' }),
      view('stale', 61_000, { mux_viewer_id: 'cookie-3' }),
      view('closed', 1_000, { mux_viewer_id: 'cookie-4', view_end: formatDateTime64(NOW - 1_000) }),
      view('live', 3_000, { asset_id: 'asset-rec', playback_id: 'pb-live', live_stream_id: 'ls-1', mux_viewer_id: 'cookie-5', video_id: 'my-video' }),
    ]);
    // a later version of open-b closes it: FINAL must see only that one
    await store.insert('views', [{ ...view('open-b', 2_000, { mux_viewer_id: 'cookie-1' }), view_end: formatDateTime64(NOW - 2_000), version: 9 }]);
    counts = new ViewerCountsQuery(store);
  });

  afterAll(async () => {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts the open views heard from within the window and their distinct viewers', async () => {
    expect(await counts.count({ column: 'asset_id', id: 'asset-1' }, NOW)).toEqual({ views: 2, viewers: 2 });
    expect(await counts.count({ column: 'playback_id', id: 'pb-1' }, NOW)).toEqual({ views: 2, viewers: 2 });
  });

  it('one viewer watching twice is one viewer (the customer viewer id before the cookie)', async () => {
    await store.insert('views', [view('open-d', 1_000, { mux_viewer_id: 'cookie-7', viewer_user_id: 'user-9' })]);
    expect(await counts.count({ column: 'asset_id', id: 'asset-1' }, NOW)).toEqual({ views: 3, viewers: 2 });
  });

  it('counts by live stream and video id; nothing for an unknown id or once every view is stale', async () => {
    expect(await counts.count({ column: 'live_stream_id', id: 'ls-1' }, NOW)).toEqual({ views: 1, viewers: 1 });
    expect(await counts.count({ column: 'video_id', id: 'my-video' }, NOW)).toEqual({ views: 1, viewers: 1 });
    expect(await counts.count({ column: 'asset_id', id: 'nobody' }, NOW)).toEqual({ views: 0, viewers: 0 });
    expect(await counts.count({ column: 'asset_id', id: 'asset-1' }, NOW + 120_000)).toEqual({ views: 0, viewers: 0 });
  });
});
