import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BEACONS_STREAM, InProcessBus, publishData } from '@platform/events';
import { AnalyticsStore } from '../clickhouse/analytics-store.port';
import { createAnalyticsStore } from '../clickhouse/create-analytics-store';
import { runStoreMigrations } from '../clickhouse/store-migrations';
import { ClickHouseViewRepository } from './clickhouse-view-repository';
import { UnresolvedPlaybackIds } from './playback-id-resolver';
import { InMemoryViewRepository } from './testing/in-memory-view-repository';
import { playedView, silentView } from './testing/sample-views';
import { ViewBuilder } from './view-builder';
import { ViewRow } from './view-row';
import { ViewsConsumer } from './views.consumer';
import { VIEW_MIGRATIONS } from './views.migrations';
import { DEFAULT_VIEWS_OPTIONS } from './views.options';

jest.setTimeout(60_000);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-views-'));
const T0 = 1_767_225_600_000;
const clock = { now: T0 + 300_000 };

function builderOn(store: AnalyticsStore): ViewBuilder {
  return new ViewBuilder(new ClickHouseViewRepository(store), new UnresolvedPlaybackIds(), DEFAULT_VIEWS_OPTIONS, () => clock.now);
}

async function storedRow(store: AnalyticsStore, viewId: string): Promise<Record<string, unknown>> {
  const [row] = await store.query('SELECT * FROM views FINAL WHERE view_id = {id:String}', { id: viewId });
  return row;
}

/** What the in-memory fold writes for the same batches: the reference the stored row must equal. */
async function expectedRow(batches: ReturnType<typeof playedView>, viewId: string): Promise<ViewRow> {
  const memory = new InMemoryViewRepository();
  const builder = new ViewBuilder(memory, new UnresolvedPlaybackIds(), DEFAULT_VIEWS_OPTIONS, () => clock.now);
  for (const batch of batches) await builder.ingest(batch);
  return memory.latest(viewId) as ViewRow;
}

describe('views in ClickHouse (chDB)', () => {
  let store: AnalyticsStore;

  beforeAll(async () => {
    store = await createAnalyticsStore({ dataDir, clickhouseUrl: undefined });
    await runStoreMigrations(store, VIEW_MIGRATIONS);
  });

  afterAll(async () => {
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrations are idempotent', async () => {
    expect(await runStoreMigrations(store, VIEW_MIGRATIONS)).toEqual({ applied: [], alreadyApplied: [100, 101, 102, 103] });
    expect(await store.query(`SELECT name, partition_key FROM system.tables WHERE database = currentDatabase() AND name LIKE 'views%'`)).toEqual([
      { name: 'views', partition_key: 'toYYYYMMDD(inserted_at)' },
    ]);
  });

  it('stores the folded view row (every column as written) and its events for the timeline', async () => {
    const batches = playedView('stored');
    const builder = builderOn(store);
    for (const batch of batches) await builder.ingest(batch);
    for (const batch of batches) await builder.ingest(batch); // redelivery: no change
    const expected = await expectedRow(batches, 'stored');
    const row = await storedRow(store, 'stored');
    expect({ ...row, updated_at: undefined }).toEqual({ ...expected, updated_at: undefined });
    const events = await store.query<{ name: string; details: string; event_time: number }>(
      `SELECT name, details, toUnixTimestamp64Milli(event_time) AS event_time FROM view_events
       WHERE view_id = 'stored' ORDER BY view_sequence_number LIMIT 1 BY view_sequence_number`,
    );
    expect(events.map((e) => e.name)).toHaveLength(13);
    expect(JSON.parse(events[2].details)).toEqual({ video_source_bitrate: 1_000_000, video_source_width: 640, video_source_height: 360 });
    expect(events[1].event_time).toBe(T0 + 1000 + 50);
    const [{ total }] = await store.query<{ total: number }>("SELECT count() AS total FROM view_events WHERE view_id = 'stored'");
    expect(total).toBe(13);
  });

  it('a restart folds views again from view_events: state carried forward is not lost, order does not matter', async () => {
    const [b1, b2, b3, b4] = playedView('restarted');
    await builderOn(store).ingest(b2);
    await builderOn(store).ingest(b1);
    await builderOn(store).ingest(b4);
    await builderOn(store).ingest(b3);
    const expected = await expectedRow([b1, b2, b3, b4], 'restarted');
    expect({ ...(await storedRow(store, 'restarted')), updated_at: undefined }).toEqual({ ...expected, updated_at: undefined });
  });

  it('the sweeper finds silent views in the table after a restart and closes them as dropped', async () => {
    clock.now = T0 + 30_000;
    const before = builderOn(store);
    for (const batch of silentView('silent')) await before.ingest(batch);
    expect(await storedRow(store, 'silent')).toMatchObject({ view_end: null, view_dropped: false });
    clock.now = T0 + 30_000 + DEFAULT_VIEWS_OPTIONS.silenceMs;
    expect(await builderOn(store).sweep()).toBe(1);
    expect(await storedRow(store, 'silent')).toMatchObject({ view_end: '2026-01-01 00:00:20.850', view_dropped: true, watch_time: 20_800 });
    expect(await builderOn(store).sweep()).toBe(0);
    clock.now = T0 + 300_000;
  });

  it('the consumer folds BEACONS_STREAM batches from the bus', async () => {
    const bus = new InProcessBus();
    const consumer = new ViewsConsumer(bus, builderOn(store));
    await consumer.onModuleInit();
    await bus.start();
    const batches = playedView('via-bus');
    for (const batch of batches) await publishData(bus, BEACONS_STREAM, batch);
    await bus.settled();
    expect(await storedRow(store, 'via-bus')).toMatchObject({
      view_end: expect.any(String),
      watch_time: 212_800,
      buffering_count: 1,
      rendition_change_count: 1,
    });
    await bus.close();
  });
});
