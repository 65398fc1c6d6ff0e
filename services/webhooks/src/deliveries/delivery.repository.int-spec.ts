import { randomUUID } from 'node:crypto';
import { loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { newId } from '@platform/ids';
import { DataSource, MigrationInterface } from 'typeorm';
import { webhooksDatabase } from '../database-options';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { ClaimedDelivery } from './delivery.entity';
import { CLAIM_DUE_SQL, DeliveryRepository } from './delivery.repository';
import { createPgliteDatabase, createTestDatabase } from '@platform/testing';

jest.setTimeout(60_000);

interface Database {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database on the Postgres at TEST_DATABASE_URL, or on embedded PGlite (as `npm start` runs). */
const servers: Array<[string, () => Promise<Database>]> = [
  ['Postgres', () => createTestDatabase('webhooks_repo')],
  ['PGlite', () => createPgliteDatabase()],
];

const attempt = (number: number, statusCode = 500): Omit<DeliveryAttemptEntity, 'deliveryId'> => ({
  id: randomUUID(),
  number,
  attemptedAt: new Date(),
  address: 'http://receiver.test/hooks',
  responseStatusCode: statusCode,
  responseHeaders: { 'content-type': 'text/plain' },
  responseBody: 'body',
  error: null,
  durationMs: 7,
});

describe.each(servers)('DeliveryRepository on %s', (_name, createDatabase) => {
  let database: Database;
  let config: PlatformConfig;
  let dataSource: DataSource;
  let deliveries: DeliveryRepository;

  /** Records one delivery per [objectId] and returns their event ids in order. */
  const record = async (...objectIds: string[]): Promise<string[]> => {
    const eventIds: string[] = [];
    for (const objectId of objectIds) {
      const eventId = randomUUID();
      const body = { type: 'video.asset.updated', id: eventId, object: { type: 'asset', id: objectId }, data: { passthrough: 'ü' }, attempts: [] };
      expect(
        await deliveries.record({ id: newId(), eventId, eventType: body.type, objectType: 'asset', objectId, url: 'http://receiver.test/hooks', body }),
      ).toBe(true);
      eventIds.push(eventId);
    }
    return eventIds;
  };
  const events = (claimed: ClaimedDelivery[]) => claimed.map((c) => c.eventId);
  /** Claims only among this test's objects (other tests' deliveries may still be pending). */
  const claimOf = async (objects: string[], limit = 100, leaseMs = 60_000, token = newId()) =>
    (await deliveries.claimDue(limit, leaseMs, token)).filter((c) => objects.includes(c.objectId));
  const object = () => `object-${newId(8)}`;

  beforeAll(async () => {
    database = await createDatabase();
    config = { ...loadConfig({}), databaseUrl: database.url, databasePoolSize: 3 };
    dataSource = await openDatabase(config, webhooksDatabase);
    deliveries = new DeliveryRepository(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('migrates once, again without change, keeping the environment id', async () => {
    const [before] = await dataSource.query<Array<{ id: string; name: string }>>('SELECT "id", "name" FROM "webhooks"."environment"');
    expect(before).toEqual({ id: expect.stringMatching(/^[0-9a-z]{6}$/), name: 'Production' });
    const second = await openDatabase(config, webhooksDatabase);
    try {
      const runner = second.createQueryRunner();
      try {
        for (const Migration of webhooksDatabase.migrations as Array<new () => MigrationInterface>) await new Migration().up(runner);
      } finally {
        await runner.release();
      }
    } finally {
      await second.destroy();
    }
    expect(await dataSource.query('SELECT "id", "name" FROM "webhooks"."environment"')).toEqual([before]);
    const tables = await dataSource.query<Array<{ table_name: string }>>(
      `SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = 'webhooks' ORDER BY "table_name"`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(['deliveries', 'delivery_attempts', 'environment', 'migrations']);
    const columns = await dataSource.query<Array<{ column_name: string }>>(
      `SELECT "column_name" FROM information_schema.columns WHERE "table_schema" = 'webhooks' AND "table_name" = 'deliveries'`,
    );
    expect(columns.map((c) => c.column_name)).toContain('occurred_at');
  });

  it('records an event once, keeping its body as written', async () => {
    const [eventId] = await record(object());
    expect(await deliveries.record({ id: newId(), eventId, eventType: 'x', objectType: 'asset', objectId: 'other', url: 'http://x', body: {} })).toBe(false);
    const row = await deliveries.findByIdOrEventId(eventId);
    expect(row).toMatchObject({ eventId, status: 'pending', attemptCount: 0, claimToken: null });
    expect(Object.keys(row!.body)).toEqual(['type', 'id', 'object', 'data', 'attempts']);
    expect(row!.body.data).toEqual({ passthrough: 'ü' });
  });

  it('claims only the oldest pending delivery of each object, and each only once while leased', async () => {
    const [a, b] = [object(), object()];
    const [a1, a2, b1] = await record(a, a, b);
    const claimed = await claimOf([a, b]);
    expect(events(claimed)).toEqual([a1, b1]);
    expect(claimed[0]).toMatchObject({ objectId: a, url: 'http://receiver.test/hooks', attemptCount: 0, claimToken: expect.any(String) });
    expect(await claimOf([a, b])).toEqual([]);

    // a1 delivered: a2 becomes the head of its object
    expect(await deliveries.recordAttempt(claimed[0], attempt(1, 200), { status: 'delivered' })).toBe(true);
    expect(events(await claimOf([a, b]))).toEqual([a2]);
  });

  it('sends an object’s events in the order they happened, even when recorded out of order, once held long enough', async () => {
    const a = object();
    const recordAt = async (createdAt: string) => {
      const eventId = randomUUID();
      const body = { type: 'video.live_stream.updated', id: eventId, created_at: createdAt, object: { type: 'live', id: a }, data: {} };
      await deliveries.record({ id: newId(), eventId, eventType: body.type, objectType: 'live', objectId: a, url: 'http://receiver.test/hooks', body });
      return eventId;
    };
    const later = await recordAt('2026-01-01T00:00:00.002Z'); // arrived first (its topic was quicker)
    const earlier = await recordAt('2026-01-01T00:00:00.001Z');
    // held: nothing recorded in the last minute is due yet
    expect((await deliveries.claimDue(100, 60_000, newId(), 60_000)).filter((c) => c.objectId === a)).toEqual([]);
    const first = (await deliveries.claimDue(100, 60_000, newId(), 0)).filter((c) => c.objectId === a);
    expect(events(first)).toEqual([earlier]);
    expect(await deliveries.recordAttempt(first[0], attempt(1, 200), { status: 'delivered' })).toBe(true);
    expect(events(await claimOf([a]))).toEqual([later]);
  });

  it('holds an object behind a delivery waiting out its backoff, and a failed one no longer blocks it', async () => {
    const a = object();
    const [a1, a2] = await record(a, a);
    const [first] = await claimOf([a]);
    expect(await deliveries.recordAttempt(first, attempt(1), { status: 'pending', retryInMs: 300 })).toBe(true);
    const afterFirst = await deliveries.findByIdOrEventId(a1);
    expect(afterFirst).toMatchObject({ status: 'pending', attemptCount: 1, claimToken: null, claimedUntil: null });
    expect(afterFirst!.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(150);
    expect(await claimOf([a])).toEqual([]); // a1 not due yet, a2 behind it

    await new Promise((r) => setTimeout(r, 350));
    const [retry] = await claimOf([a]);
    expect(retry).toMatchObject({ eventId: a1, attemptCount: 1 });
    expect(await deliveries.recordAttempt(retry, attempt(2), { status: 'failed' })).toBe(true);
    expect(await deliveries.findByIdOrEventId(a1)).toMatchObject({ status: 'failed', attemptCount: 2, nextAttemptAt: null, completedAt: expect.any(Date) });
    expect(events(await claimOf([a]))).toEqual([a2]);
    expect((await deliveries.attemptsOf([retry.id])).map((x) => [x.number, x.responseStatusCode, x.responseHeaders, x.responseBody])).toEqual([
      [1, 500, { 'content-type': 'text/plain' }, 'body'],
      [2, 500, { 'content-type': 'text/plain' }, 'body'],
    ]);
  });

  it('lets another dispatcher take over a lapsed lease; the old holder can then record nothing', async () => {
    const a = object();
    const [a1] = await record(a);
    const [stale] = await claimOf([a], 100, 50);
    await new Promise((r) => setTimeout(r, 80));
    const [current] = await claimOf([a]);
    expect(current).toMatchObject({ eventId: a1, attemptCount: 0 });
    expect(current.claimToken).not.toBe(stale.claimToken);

    expect(await deliveries.recordAttempt(stale, attempt(1), { status: 'delivered' })).toBe(false);
    expect(await deliveries.attemptsOf([stale.id])).toEqual([]);
    expect(await deliveries.recordAttempt(current, attempt(2), { status: 'delivered' })).toBe(false); // not the next number
    expect(await deliveries.recordAttempt(current, attempt(1, 200), { status: 'delivered' })).toBe(true);
    expect(await deliveries.findByIdOrEventId(a1)).toMatchObject({ status: 'delivered', attemptCount: 1 });
  });

  it('never hands one delivery to two dispatchers claiming at the same time', async () => {
    const otherSource = await openDatabase(config, webhooksDatabase);
    try {
      const other = new DeliveryRepository(otherSource);
      const objects = Array.from({ length: 30 }, () => object());
      const eventIds = await record(...objects);
      const seen: string[] = [];
      for (let round = 0; round < 20 && seen.length < objects.length; round++) {
        const batches = await Promise.all([deliveries, other, deliveries, other].map((repo) => repo.claimDue(4, 60_000, newId())));
        seen.push(
          ...batches
            .flat()
            .filter((c) => objects.includes(c.objectId))
            .map((c) => c.eventId),
        );
      }
      expect(seen.length).toBe(new Set(seen).size);
      expect([...seen].sort()).toEqual([...eventIds].sort());
    } finally {
      await otherSource.destroy();
    }
  });

  it('lists newest first, filtered by object', async () => {
    const a = object();
    const [a1, a2] = await record(a, a);
    await record(object());
    expect((await deliveries.list(10, 0, a)).map((d) => d.eventId)).toEqual([a2, a1]);
    expect((await deliveries.list(1, 1, a)).map((d) => d.eventId)).toEqual([a1]);
    const [newest] = await deliveries.list(1, 0);
    expect(newest.objectId).not.toBe(a);
  });
  it('claims by walking the pending deliveries in send order, without sorting the whole backlog', async () => {
    const prefix = `backlog-${newId(6)}`;
    await dataSource.query(
      `INSERT INTO "webhooks"."deliveries" ("id", "event_id", "event_type", "object_type", "object_id", "url", "body", "occurred_at")
       SELECT $1 || i, $1 || i, 'video.asset.updated', 'asset', $1 || i, 'http://receiver.test/hooks', '{}'::json, now() - interval '1 minute'
       FROM generate_series(1, 5000) i`,
      [prefix],
    );
    try {
      await dataSource.query('ANALYZE "webhooks"."deliveries"');
      const [{ 'QUERY PLAN': plan }] = await dataSource.query<Array<{ 'QUERY PLAN': unknown }>>(`EXPLAIN (FORMAT JSON) ${CLAIM_DUE_SQL}`, [
        4,
        60_000,
        newId(),
        0,
      ]);
      const text = JSON.stringify(plan);
      expect(text).toContain('"Index Name":"deliveries_pending_send_order"');
      expect(text).not.toMatch(/"Node Type":"(Incremental )?Sort"/);
    } finally {
      await dataSource.query(`DELETE FROM "webhooks"."deliveries" WHERE "id" LIKE $1 || '%'`, [prefix]);
    }
  });
});
