import { AnalyticsStore, StoreParams } from './analytics-store.port';
import { checkMigrations, runStoreMigrations } from './store-migrations';

/** Records statements; `schema_migrations` is a list of rows. */
class RecordingStore implements AnalyticsStore {
  readonly statements: string[] = [];
  readonly recorded: { version: number; name: string }[] = [];
  failOn?: string;

  command(sql: string): Promise<void> {
    if (this.failOn && sql.includes(this.failOn)) return Promise.reject(new Error('Code: 62. DB::Exception: Syntax error. (SYNTAX_ERROR)'));
    this.statements.push(sql);
    return Promise.resolve();
  }
  query<T>(sql: string, _params?: StoreParams): Promise<T[]> {
    if (sql.startsWith('SELECT guard')) return Promise.resolve((sql.endsWith('yes') ? [{ guard: 1 }] : []) as T[]);
    expect(sql).toContain('FROM schema_migrations FINAL');
    return Promise.resolve(this.recorded as T[]);
  }
  insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    expect(table).toBe('schema_migrations');
    this.recorded.push(...(rows as { version: number; name: string }[]));
    return Promise.resolve();
  }
  ping = () => Promise.resolve(true);
  close = () => Promise.resolve();
}

const m = (version: number, name = `m${version}`, statements = [`CREATE TABLE IF NOT EXISTS t${version} (a UInt8) ENGINE = Memory`]) => ({
  version,
  name,
  statements,
});

describe('runStoreMigrations', () => {
  it('creates its table, applies unapplied migrations in version order, records each after its statements', async () => {
    const store = new RecordingStore();
    expect(await runStoreMigrations(store, [m(200), m(3), m(101)])).toEqual({ applied: [3, 101, 200], alreadyApplied: [] });
    expect(store.statements[0]).toMatch(/^CREATE TABLE IF NOT EXISTS schema_migrations/);
    expect(store.statements.slice(1)).toEqual([m(3).statements[0], m(101).statements[0], m(200).statements[0]]);
    expect(await runStoreMigrations(store, [m(200), m(3), m(101), m(4)])).toEqual({ applied: [4], alreadyApplied: [3, 101, 200] });
  });

  it('does not record a migration whose statement failed, and names it', async () => {
    const store = new RecordingStore();
    store.failOn = 'broken';
    await expect(runStoreMigrations(store, [m(1), m(2, 'two', ['CREATE broken'])])).rejects.toThrow('analytics store migration 2 (two) failed: Code: 62');
    expect(store.recorded.map((r) => r.version)).toEqual([1]);
  });

  it('runs the statements of a guarded migration only while its guard returns a row, and records it either way', async () => {
    const store = new RecordingStore();
    const guarded = (version: number, onlyIf: string) => ({ ...m(version), onlyIf });
    expect(await runStoreMigrations(store, [guarded(1, 'SELECT guard yes'), guarded(2, 'SELECT guard no')])).toEqual({ applied: [1, 2], alreadyApplied: [] });
    expect(store.statements.slice(1)).toEqual([m(1).statements[0]]);
  });

  it('refuses a recorded version whose name changed', async () => {
    const store = new RecordingStore();
    store.recorded.push({ version: 1, name: 'old' });
    await expect(runStoreMigrations(store, [m(1, 'new')])).rejects.toThrow(/recorded as "old" but the code names it "new"/);
  });
});

describe('checkMigrations', () => {
  it('refuses duplicate, invalid and empty migrations', () => {
    expect(() => checkMigrations([m(1, 'a'), m(1, 'b')])).toThrow(/"a" and "b" share version 1/);
    expect(() => checkMigrations([m(0)])).toThrow(/invalid version/);
    expect(() => checkMigrations([m(1.5)])).toThrow(/invalid version/);
    expect(() => checkMigrations([m(1, 'x', [])])).toThrow(/needs a name and statements/);
  });
});
