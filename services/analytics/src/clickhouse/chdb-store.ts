import fs from 'node:fs';
import path from 'node:path';
import type { Session } from 'chdb';
import { AnalyticsStore, StoreParams } from './analytics-store.port';
import { toStoreError } from './analytics-store-error';
import { assertTableName, parseJsonEachRow, STORE_SETTINGS, toJsonEachRow } from './store-settings';

/** One open chDB session and the stores sharing it. */
interface OpenSession {
  session: Session;
  users: number;
}

// libchdb binds one data directory per process, and the embedded platform runs every service in
// one process: each path has one session, shared by every store opened on it, closed with the last.
const sessions = new Map<string, OpenSession>();

/**
 * The embedded analytics store: chDB (ClickHouse compiled as a library) on a data directory.
 * Every call runs on libuv's thread pool (the async chDB APIs), never on the event loop.
 */
export class ChdbStore implements AnalyticsStore {
  private closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  private constructor(
    readonly dataDir: string,
    private readonly open: OpenSession,
  ) {}

  /** The store on `dataDir` (created if missing), sharing the process's session on that path. */
  static openAt(dataDir: string): ChdbStore {
    const key = path.resolve(dataDir);
    let open = sessions.get(key);
    if (!open) {
      fs.mkdirSync(key, { recursive: true });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const chdb = require('chdb') as typeof import('chdb');
      const args = Object.entries(STORE_SETTINGS).map(([name, value]) => `--${name}=${value}`);
      open = { session: new chdb.Session(key, { connectionArgs: args }), users: 0 };
      sessions.set(key, open);
    }
    open.users++;
    return new ChdbStore(key, open);
  }

  async command(sql: string, params: StoreParams = {}): Promise<void> {
    await this.run(sql, params, 'CSV');
  }

  async query<T = Record<string, unknown>>(sql: string, params: StoreParams = {}): Promise<T[]> {
    return parseJsonEachRow<T>(await this.run(sql, params, 'JSONEachRow'));
  }

  async insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    assertTableName(table);
    if (rows.length === 0) return;
    await this.track(this.session().insert({ table, values: toJsonEachRow(rows), format: 'JSONEachRow', settings: { ...STORE_SETTINGS } }));
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.query<{ ok: number }>('SELECT 1 AS ok'))[0]?.ok === 1;
    } catch {
      return false;
    }
  }

  /** Idempotent; waits for this store's statements, and closes the session when no other store uses it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    if (--this.open.users > 0) return;
    if (sessions.get(this.dataDir) === this.open) sessions.delete(this.dataDir);
    this.open.session.close();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    await (require('chdb') as typeof import('chdb')).drainPending();
  }

  private async run(sql: string, params: StoreParams, format: string): Promise<string> {
    const session = this.session();
    const result = Object.keys(params).length > 0 ? session.queryBindAsync(sql, params, { format }) : session.queryAsync(sql, { format });
    return (await this.track(result)).text();
  }

  private session(): Session {
    if (this.closed) throw new Error(`the analytics store on ${this.dataDir} is closed`);
    return this.open.session;
  }

  private async track<R>(operation: Promise<R>): Promise<R> {
    this.inFlight.add(operation);
    try {
      return await operation;
    } catch (err) {
      throw toStoreError(err);
    } finally {
      this.inFlight.delete(operation);
    }
  }
}
