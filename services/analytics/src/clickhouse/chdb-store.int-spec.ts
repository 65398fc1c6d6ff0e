import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeAnalyticsStoreContract } from './analytics-store.contract';
import { ChdbStore } from './chdb-store';
import { chdbDataDir, createAnalyticsStore } from './create-analytics-store';

jest.setTimeout(60_000);

// libchdb binds one data directory per process: every test here uses this one.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-chdb-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describeAnalyticsStoreContract('chDB (embedded)', () => createAnalyticsStore({ dataDir, clickhouseUrl: undefined }));

describe('ChdbStore', () => {
  it('keeps its data under DATA_DIR/clickhouse, across close and reopen', async () => {
    const first = ChdbStore.openAt(chdbDataDir({ dataDir }));
    await first.command('CREATE TABLE IF NOT EXISTS kept (id String) ENGINE = MergeTree ORDER BY id');
    await first.insert('kept', [{ id: 'persisted' }]);
    await first.close();
    expect(fs.existsSync(path.join(dataDir, 'clickhouse'))).toBe(true);

    const again = ChdbStore.openAt(chdbDataDir({ dataDir }));
    expect(await again.query('SELECT id FROM kept')).toEqual([{ id: 'persisted' }]);
    await again.close();
  });

  it('shares one session per path: closing one store leaves the others working; close is idempotent', async () => {
    const dir = chdbDataDir({ dataDir });
    const a = ChdbStore.openAt(dir);
    const b = ChdbStore.openAt(dir);
    const running = a.query('SELECT count() AS c FROM numbers(2000000)');
    await a.close(); // waits for its statement
    await a.close();
    expect(await running).toEqual([{ c: 2000000 }]);
    await expect(a.query('SELECT 1')).rejects.toThrow(/closed/);
    expect(await a.ping()).toBe(false);
    expect(await b.query('SELECT 2 AS two')).toEqual([{ two: 2 }]);
    await b.close();
  });
});
