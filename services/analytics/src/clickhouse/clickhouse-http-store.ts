import type { ClickHouseClient } from '@clickhouse/client';
import { AnalyticsStore, StoreParams } from './analytics-store.port';
import { toStoreError } from './analytics-store-error';
import { assertTableName, STORE_SETTINGS } from './store-settings';

/** The database used when CLICKHOUSE_URL names none. */
export const DEFAULT_CLICKHOUSE_DATABASE = 'video_platform';

/** Where CLICKHOUSE_URL points: the server (credentials included) and the database. */
export interface ClickHouseTarget {
  /** The server's URL without path, query or credentials. */
  url: string;
  username?: string;
  password?: string;
  database: string;
}

/**
 * CLICKHOUSE_URL's rule (the one @clickhouse/client itself applies to a URL's path): the path names
 * the database, `http://user:pass@host:8123/analytics` → database `analytics`; no path →
 * `video_platform`. Credentials may be in the URL (percent-encoded).
 */
export function parseClickHouseUrl(raw: string): ClickHouseTarget {
  const u = new URL(raw);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`CLICKHOUSE_URL must be http(s), not ${u.protocol}`);
  const database = decodeURIComponent(u.pathname.replace(/^\/+|\/+$/g, '')) || DEFAULT_CLICKHOUSE_DATABASE;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) {
    throw new Error(`CLICKHOUSE_URL's path must be a database name (letters, digits, _), not ${JSON.stringify(database)}`);
  }
  return {
    url: `${u.protocol}//${u.host}`,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database,
  };
}

/** The production analytics store: a ClickHouse server over HTTP (@clickhouse/client). */
export class ClickHouseHttpStore implements AnalyticsStore {
  private closed = false;

  private constructor(
    private readonly client: ClickHouseClient,
    readonly database: string,
  ) {}

  /** Connects to the target, creating its database if missing. */
  static async connect(target: ClickHouseTarget): Promise<ClickHouseHttpStore> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createClient, ClickHouseLogLevel } = require('@clickhouse/client') as typeof import('@clickhouse/client');
    const options = {
      url: target.url,
      username: target.username ?? 'default',
      password: target.password ?? '',
      clickhouse_settings: { ...STORE_SETTINGS },
      // Every failure reaches the caller as a rejected promise; the client's own logging would repeat it.
      log: { level: ClickHouseLogLevel.OFF },
    };
    const admin = createClient(options);
    try {
      // The name was checked by parseClickHouseUrl (an identifier cannot be a bound parameter here).
      await admin.command({ query: `CREATE DATABASE IF NOT EXISTS \`${target.database}\`` });
    } catch (err) {
      throw toStoreError(err);
    } finally {
      await admin.close();
    }
    return new ClickHouseHttpStore(createClient({ ...options, database: target.database }), target.database);
  }

  async command(sql: string, params: StoreParams = {}): Promise<void> {
    await this.call(() => this.client.command({ query: sql, query_params: { ...params } }));
  }

  async query<T = Record<string, unknown>>(sql: string, params: StoreParams = {}): Promise<T[]> {
    return this.call(async () => {
      const result = await this.client.query({ query: sql, query_params: { ...params }, format: 'JSONEachRow' });
      return result.json<T>();
    });
  }

  async insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    assertTableName(table);
    if (rows.length === 0) return;
    await this.call(() => this.client.insert({ table, values: [...rows], format: 'JSONEachRow' }));
  }

  async ping(): Promise<boolean> {
    if (this.closed) return false;
    return (await this.client.ping()).success;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  private async call<R>(operation: () => Promise<R>): Promise<R> {
    if (this.closed) throw new Error(`the analytics store on database ${this.database} is closed`);
    try {
      return await operation();
    } catch (err) {
      throw toStoreError(err);
    }
  }
}
