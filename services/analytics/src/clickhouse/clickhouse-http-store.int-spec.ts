import { randomBytes } from 'node:crypto';
import { createClient } from '@clickhouse/client';
import { describeAnalyticsStoreContract } from './analytics-store.contract';
import { ClickHouseHttpStore, parseClickHouseUrl } from './clickhouse-http-store';
import { createAnalyticsStore } from './create-analytics-store';

const server = process.env.TEST_CLICKHOUSE_URL;
if (!server) {
  throw new Error(
    'TEST_CLICKHOUSE_URL is not set: start a server (scripts/infra/clickhouse.sh start) and export TEST_CLICKHOUSE_URL=$(scripts/infra/clickhouse.sh url)',
  );
}

jest.setTimeout(60_000);

// A database of this file's own, created by the store (exercising that) and dropped at the end.
const database = `int_${randomBytes(4).toString('hex')}`;
const url = `${server.replace(/\/+$/, '')}/${database}`;

afterAll(async () => {
  const admin = createClient({ url: server.replace(/\/+$/, '') });
  await admin.command({ query: `DROP DATABASE IF EXISTS ${database}` });
  await admin.close();
});

describeAnalyticsStoreContract('ClickHouse over HTTP', () => createAnalyticsStore({ dataDir: '/nonexistent', clickhouseUrl: url }));

describe('ClickHouseHttpStore', () => {
  it('creates the database named by the URL path and works in it; close is idempotent', async () => {
    const store = await ClickHouseHttpStore.connect(parseClickHouseUrl(url));
    expect(store.database).toBe(database);
    expect(await store.query('SELECT currentDatabase() AS db')).toEqual([{ db: database }]);
    await store.close();
    await store.close();
    expect(await store.ping()).toBe(false);
    await expect(store.query('SELECT 1')).rejects.toThrow(/closed/);
  });

  it('rejects with the server unreachable', async () => {
    await expect(ClickHouseHttpStore.connect(parseClickHouseUrl('http://127.0.0.1:9/x'))).rejects.toThrow();
  });
});
