import { randomBytes } from 'node:crypto';
import { AnalyticsStore } from './analytics-store.port';
import { AnalyticsStoreError } from './analytics-store-error';
import { pageWithTotal } from './paged-query';
import { runStoreMigrations } from './store-migrations';

const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

const awkward = `it's a "test" \\ back\\slash\ttab\nnewline ünïcødé ✓ '; DROP TABLE schema_migrations; --`;

async function rejection(promise: Promise<unknown>): Promise<AnalyticsStoreError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AnalyticsStoreError);
  return err as AnalyticsStoreError;
}

/**
 * The behaviour every AnalyticsStore adapter must have, the same SQL giving the same rows: run
 * against embedded chDB and against a ClickHouse HTTP server in the integration tests. Tables have
 * random names, so the store need not be empty.
 */
export function describeAnalyticsStoreContract(name: string, makeStore: () => Promise<AnalyticsStore>): void {
  describe(`AnalyticsStore contract: ${name}`, () => {
    let store: AnalyticsStore;

    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('answers a ping', async () => {
      expect(await store.ping()).toBe(true);
    });

    it('binds parameters of each type by the engine, injection-looking strings included', async () => {
      const rows = await store.query(
        `SELECT {s:String} AS s, {u:UInt64} AS u, {i:Int64} AS i, {f:Float64} AS f, {b:Bool} AS b, {n:Nullable(String)} AS n,
                {tags:Array(String)} AS tags, {nums:Array(UInt32)} AS nums, {at:DateTime64(3, 'UTC')} AS at, {d:Date} AS d`,
        {
          s: awkward,
          u: 2 ** 40 + 7,
          i: -42,
          f: 0.125,
          b: true,
          n: null,
          tags: ["o'clock", 'a\\b', '', awkward],
          nums: [3, 1, 2],
          at: '2024-05-06 07:08:09.123',
          d: '2024-02-29',
        },
      );
      expect(rows).toEqual([
        {
          s: awkward,
          u: 2 ** 40 + 7,
          i: -42,
          f: 0.125,
          b: true,
          n: null,
          tags: ["o'clock", 'a\\b', '', awkward],
          nums: [3, 1, 2],
          at: '2024-05-06 07:08:09.123',
          d: '2024-02-29',
        },
      ]);
      expect(await store.query('SELECT {x:Identifier} AS x FROM (SELECT 5 AS x)', { x: 'x' })).toEqual([{ x: 5 }]);
    });

    it('inserts rows and reads them back: 64-bit integers as JSON numbers, DateTime64 as UTC text', async () => {
      const table = unique('round_trip');
      await store.command(`CREATE TABLE ${table} (
        id String, n UInt64, delta Int64, score Float64, ok Bool, note Nullable(String), tags Array(String), at DateTime64(3, 'UTC')
      ) ENGINE = MergeTree ORDER BY id`);
      await store.insert(table, [
        { id: 'a', n: 2 ** 50, delta: -3, score: 1.5, ok: true, note: null, tags: ['x', awkward], at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)) },
        { id: 'b', n: 0, delta: 9, score: -0.25, ok: false, note: awkward, tags: [], at: '2024-01-02 03:04:05.001' },
      ]);
      await store.insert(table, []);
      const rows = await store.query(`SELECT * FROM ${table} ORDER BY id`);
      expect(rows).toEqual([
        { id: 'a', n: 2 ** 50, delta: -3, score: 1.5, ok: true, note: null, tags: ['x', awkward], at: '2024-01-02 03:04:05.678' },
        { id: 'b', n: 0, delta: 9, score: -0.25, ok: false, note: awkward, tags: [], at: '2024-01-02 03:04:05.001' },
      ]);
      const [counted] = await store.query<{ c: number }>(
        `SELECT count() AS c FROM ${table} WHERE id IN {ids:Array(String)} AND at >= {since:DateTime64(3, 'UTC')}`,
        {
          ids: ['a', 'b', "' OR 1=1 --"],
          since: '2024-01-02 03:04:05.500',
        },
      );
      expect(counted).toEqual({ c: 1 });
    });

    it('runs commands with parameters', async () => {
      const table = unique('commands');
      await store.command(`CREATE TABLE ${table} (id String, n UInt32) ENGINE = MergeTree ORDER BY id`);
      await store.command(`INSERT INTO ${table} SELECT {id:String}, {n:UInt32}`, { id: awkward, n: 7 });
      expect(await store.query(`SELECT id, n FROM ${table}`)).toEqual([{ id: awkward, n: 7 }]);
    });

    it('keeps the latest version of a key in a ReplacingMergeTree read with FINAL', async () => {
      const table = unique('replacing');
      await store.command(`CREATE TABLE ${table} (view_id String, version UInt64, watch_ms UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY view_id`);
      await store.insert(table, [{ view_id: 'v1', version: 1, watch_ms: 100 }]);
      await store.insert(table, [{ view_id: 'v1', version: 3, watch_ms: 300 }]);
      await store.insert(table, [
        { view_id: 'v1', version: 2, watch_ms: 200 },
        { view_id: 'v2', version: 1, watch_ms: 50 },
      ]);
      expect(await store.query(`SELECT view_id, version, watch_ms FROM ${table} FINAL ORDER BY view_id`)).toEqual([
        { view_id: 'v1', version: 3, watch_ms: 300 },
        { view_id: 'v2', version: 1, watch_ms: 50 },
      ]);
      expect(await store.query(`SELECT count() AS c FROM ${table}`)).toEqual([{ c: 4 }]); // unmerged parts without FINAL
    });

    it('computes exact quantiles and distinct counts', async () => {
      const table = unique('aggregates');
      await store.command(`CREATE TABLE ${table} (viewer String, startup_ms UInt32) ENGINE = MergeTree ORDER BY viewer`);
      await store.insert(
        table,
        [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000].map((ms, i) => ({ viewer: `viewer-${i % 4}`, startup_ms: ms })),
      );
      expect(
        await store.query(`SELECT quantileExact(0.5)(startup_ms) AS p50, quantileExact(0.95)(startup_ms) AS p95, uniqExact(viewer) AS viewers,
                avg(startup_ms) AS mean, sum(startup_ms) AS total FROM ${table}`),
      ).toEqual([{ p50: 600, p95: 1000, viewers: 4, mean: 550, total: 5500 }]);
    });

    it('answers many statements at once, each with its own parameters', async () => {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store.query<{ v: number; s: string }>('SELECT {v:UInt32} * 2 AS v, {s:String} AS s', { v: i, s: `s${i}` })),
      );
      expect(results).toEqual(Array.from({ length: 12 }, (_, i) => [{ v: i * 2, s: `s${i}` }]));
    });

    it("rejects with ClickHouse's code, type and message", async () => {
      const syntax = await rejection(store.query('SELEC 1'));
      expect(syntax).toMatchObject({ code: 62, type: 'SYNTAX_ERROR' });
      expect(syntax.message).toMatch(/^Syntax error/);

      const missing = await rejection(store.query(`SELECT * FROM ${unique('missing')}`));
      expect(missing).toMatchObject({ code: 60, type: 'UNKNOWN_TABLE' });

      const thrown = await rejection(store.command(`SELECT throwIf(number = 3, 'boom: {x}') FROM numbers(10)`));
      expect(thrown).toMatchObject({ code: 395, type: 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO' });
      expect(thrown.message).toMatch(/^boom: \{x\}/);

      const badParam = await rejection(store.query('SELECT {n:UInt32} AS n', { n: 'not a number' }));
      expect(badParam.code).toBeGreaterThan(0);

      await expect(store.insert(`${unique('missing')}`, [{ a: 1 }])).rejects.toMatchObject({ code: 60, type: 'UNKNOWN_TABLE' });
      await expect(store.insert('x; DROP TABLE y', [{ a: 1 }])).rejects.toThrow(/not a table name/);
      expect(await store.ping()).toBe(true); // still usable
    });

    it('pages a list with the count of all its rows in the same statement (pageWithTotal), grouped or not, and past its end', async () => {
      const table = unique('paged');
      await store.command(`CREATE TABLE ${table} (id String, country String) ENGINE = MergeTree ORDER BY id`);
      const countries = ['DE', 'DE', 'DE', 'FR', 'FR', 'JP', 'US'];
      await store.insert(
        table,
        countries.map((country, i) => ({ id: `v${i}`, country })),
      );
      const views = { columns: 'id', from: `FROM ${table} WHERE country != {skip:String}`, orderBy: 'id DESC' };
      const skipUs = { skip: 'US' };
      expect(await pageWithTotal(store, views, skipUs, { limit: 4, offset: 0 })).toEqual({ rows: ['v5', 'v4', 'v3', 'v2'].map((id) => ({ id })), total: 6 });
      expect(await pageWithTotal(store, views, skipUs, { limit: 4, offset: 4 })).toEqual({ rows: [{ id: 'v1' }, { id: 'v0' }], total: 6 });
      expect(await pageWithTotal(store, views, skipUs, { limit: 4, offset: 8 })).toEqual({ rows: [], total: 6 }); // counted apart
      expect(await pageWithTotal(store, views, { skip: '' }, { limit: 2, offset: 6 })).toEqual({ rows: [{ id: 'v0' }], total: 7 });
      expect(await pageWithTotal(store, { ...views, from: `FROM ${table} WHERE country = {skip:String}` }, { skip: 'XX' }, { limit: 4, offset: 0 })).toEqual({
        rows: [],
        total: 0,
      });

      // the count is of groups, taken after HAVING
      const byCountry = { columns: 'country, count() AS n', from: `FROM ${table} GROUP BY country HAVING n > {min:UInt32}`, orderBy: 'n DESC, country' };
      expect(await pageWithTotal(store, byCountry, { min: 0 }, { limit: 2, offset: 0 })).toEqual({
        rows: [
          { country: 'DE', n: 3 },
          { country: 'FR', n: 2 },
        ],
        total: 4,
      });
      expect(await pageWithTotal(store, byCountry, { min: 1 }, { limit: 1, offset: 0 })).toEqual({ rows: [{ country: 'DE', n: 3 }], total: 2 });
      expect(await pageWithTotal(store, byCountry, { min: 1 }, { limit: 2, offset: 2 })).toEqual({ rows: [], total: 2 });
    });

    it('applies each migration once, in version order, and records it only after it succeeded', async () => {
      const a = unique('migrated_a');
      const b = unique('migrated_b');
      const first = { version: 9101, name: `${a} table`, statements: [`CREATE TABLE IF NOT EXISTS ${a} (id String) ENGINE = MergeTree ORDER BY id`] };
      const second = {
        version: 9102,
        name: `${b} table and a column`,
        statements: [`CREATE TABLE IF NOT EXISTS ${b} (id String) ENGINE = MergeTree ORDER BY id`, `ALTER TABLE ${a} ADD COLUMN IF NOT EXISTS n UInt32`],
      };
      const broken = { version: 9103, name: `${b} broken`, statements: [`ALTER TABLE ${b} ADD COLUMN IF NOT EXISTS m UInt32`, 'SELEC 1'] };

      expect(await runStoreMigrations(store, [second, first])).toEqual({ applied: [9101, 9102], alreadyApplied: [] });
      expect(await runStoreMigrations(store, [first, second])).toEqual({ applied: [], alreadyApplied: [9101, 9102] });
      await store.insert(a, [{ id: 'x', n: 1 }]);

      await expect(runStoreMigrations(store, [first, second, broken])).rejects.toThrow(/migration 9103 .*Syntax error/);
      // Its first statement ran (no transactions) but the version is not recorded: a fixed re-run repeats it safely.
      const fixed = { ...broken, statements: [broken.statements[0]] };
      expect(await runStoreMigrations(store, [first, second, fixed])).toEqual({ applied: [9103], alreadyApplied: [9101, 9102] });
      expect(await store.query(`SELECT version, name FROM schema_migrations FINAL WHERE version >= 9101 AND version <= 9103 ORDER BY version`)).toEqual([
        { version: 9101, name: first.name },
        { version: 9102, name: second.name },
        { version: 9103, name: fixed.name },
      ]);
      await expect(runStoreMigrations(store, [first, { ...first, name: 'other' }])).rejects.toThrow(/share version 9101/);
    });
  });
}
