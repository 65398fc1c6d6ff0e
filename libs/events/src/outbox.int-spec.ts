import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { eventually } from '@platform/testing';
import { ConsumerLag, DeliveryInfo, EventBus, PlatformEvent, Subscription } from './event-bus.port';
import { topicOf } from './event-registry';
import { EventShapeError } from './event-validation';
import { InProcessBus } from './in-process-bus';
import { markProcessed, processOnce } from './processed-events';
import { KafkaBus } from './kafka-bus';
import { OutboxRelay } from './outbox-relay';
import { outboxMigrations } from './outbox.migrations';
import { Emit, UnitOfWork } from './unit-of-work';

const databaseUrl = process.env.TEST_DATABASE_URL;
const kafkaBrokers = process.env.TEST_KAFKA_BROKERS;
if (!databaseUrl || !kafkaBrokers) {
  throw new Error(
    'outbox integration tests need a real Postgres and Kafka: export TEST_DATABASE_URL=$(scripts/infra/postgres.sh url) ' +
      'and TEST_KAFKA_BROKERS=$(scripts/infra/kafka.sh brokers) after starting both',
  );
}

jest.setTimeout(60_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A registered event's data (a transcription vocabulary's body); `n` travels as its name. */
const vocabulary = (id: string, n = 0) => ({ id, name: String(n), phrases: ['widget'], created_at: '1700000000', updated_at: String(1700000000 + n) });
const nOf = (event: PlatformEvent) => Number((event.data as { name: string }).name);

function widgetsMigration(schema: string): new () => MigrationInterface {
  return class CreateWidgets1732200009999 implements MigrationInterface {
    name = 'CreateWidgets1732200009999';
    async up(q: QueryRunner): Promise<void> {
      await q.query(`CREATE TABLE "${schema}"."widgets" ("id" text PRIMARY KEY, "name" text NOT NULL)`);
    }
    async down(q: QueryRunner): Promise<void> {
      await q.query(`DROP TABLE "${schema}"."widgets"`);
    }
  };
}

/** Records what reached the bus, in order; can be told to fail. */
class RecordingBus implements EventBus {
  readonly published: Array<{ topic: string; key: string; event: PlatformEvent }> = [];
  failing = false;
  /** Fails only this call (1-based). */
  failCall = 0;
  delayMs = 0;
  private calls = 0;

  async start(): Promise<void> {}
  async subscribe(_subscription: Subscription): Promise<void> {}
  async consumerLag(): Promise<ConsumerLag[]> {
    return [];
  }
  async close(): Promise<void> {}

  async publish(topic: string, key: string, event: PlatformEvent): Promise<void> {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failing || ++this.calls === this.failCall) throw new Error('broker unreachable');
    this.published.push({ topic, key, event });
  }
}

describe('transactional outbox on Postgres', () => {
  let dataSource: DataSource;
  let schema: string;
  const cleanup: Array<() => Promise<unknown>> = [];

  beforeEach(async () => {
    // A fresh schema per test: nothing one test leaves unpublished reaches another.
    schema = `outbox_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    dataSource = new DataSource({
      type: 'postgres',
      url: databaseUrl,
      schema,
      migrations: [...outboxMigrations(schema), widgetsMigration(schema)],
      migrationsTableName: 'migrations',
      poolSize: 6,
    });
    await dataSource.initialize();
    await dataSource.query(`CREATE SCHEMA "${schema}"`);
    await dataSource.runMigrations({ transaction: 'each' });
  });

  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
    await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource.destroy();
  });

  const newRelay = (bus: EventBus, pollMs = 50) => {
    const relay = new OutboxRelay(dataSource, schema, bus, pollMs);
    cleanup.push(() => relay.stop());
    return relay;
  };
  const countRows = async (sql: string, params: unknown[] = []) => Number((await dataSource.query<Array<{ n: string }>>(sql, params))[0].n);
  const unpublished = () => countRows(`SELECT count(*) AS n FROM "${schema}"."outbox" WHERE "published_at" IS NULL`);

  it('publishes the events of a committed unit of work, in order, as full PlatformEvents', async () => {
    const bus = new InProcessBus(3);
    cleanup.push(() => bus.close());
    const got: Array<[PlatformEvent, DeliveryInfo]> = [];
    const created = topicOf('video.transcription_vocabulary.created');
    const updated = topicOf('video.transcription_vocabulary.updated');
    await bus.subscribe({ group: 'reader', topics: [created, updated], handle: async (e, info) => void got.push([e, info]) });
    await bus.start();
    const relay = newRelay(bus, 60_000); // only the nudge after commit can publish in time
    relay.start();
    const work = new UnitOfWork(dataSource, schema, relay);

    const result = await work.run(async (manager, emit) => {
      await manager.query(`INSERT INTO "${schema}"."widgets" ("id", "name") VALUES ($1, $2)`, ['w1', 'first']);
      emit('video.transcription_vocabulary.created', vocabulary('w1', 1));
      emit('video.transcription_vocabulary.updated', vocabulary('w1', 2));
      return 'done';
    });

    expect(result).toBe('done');
    await eventually(() => expect(got).toHaveLength(2), { timeoutMs: 15_000 });
    expect(got.map(([e, info]) => [e.type, info.topic, info.key])).toEqual([
      ['video.transcription_vocabulary.created', created, 'w1'],
      ['video.transcription_vocabulary.updated', updated, 'w1'],
    ]);
    for (const [event] of got) {
      expect(event.id).toMatch(UUID);
      expect(new Date(event.occurred_at).toISOString()).toBe(event.occurred_at);
      expect(event.object).toEqual({ type: 'transcription_vocabulary', id: 'w1' });
    }
    expect(got[0][0].id).not.toBe(got[1][0].id);
    expect(got[1][0].data).toEqual(vocabulary('w1', 2));
    expect(await countRows(`SELECT count(*) AS n FROM "${schema}"."widgets" WHERE "id" = 'w1'`)).toBe(1);
    await relay.stop(); // waits for the run that published them to commit
    expect(await unpublished()).toBe(0);
  });

  it('writes neither the change nor its events when the work throws', async () => {
    const bus = new RecordingBus();
    const relay = newRelay(bus);
    const work = new UnitOfWork(dataSource, schema, relay);

    await expect(
      work.run(async (manager, emit) => {
        await manager.query(`INSERT INTO "${schema}"."widgets" ("id", "name") VALUES ($1, $2)`, ['w2', 'doomed']);
        emit('video.transcription_vocabulary.created', vocabulary('w2'));
        throw new Error('validation failed after the insert');
      }),
    ).rejects.toThrow('validation failed after the insert');

    expect(await countRows(`SELECT count(*) AS n FROM "${schema}"."widgets"`)).toBe(0);
    expect(await countRows(`SELECT count(*) AS n FROM "${schema}"."outbox"`)).toBe(0);
    expect(await relay.runOnce()).toBe(0);
    expect(bus.published).toEqual([]);
  });

  it('keeps events whose publish failed and publishes them later, in order', async () => {
    const bus = new RecordingBus();
    const relay = newRelay(bus);
    const work = new UnitOfWork(dataSource, schema, relay);
    await work.run(async (_manager, emit) => {
      for (let n = 1; n <= 3; n++) emit('video.transcription_vocabulary.updated', vocabulary('w3', n));
    });

    bus.failing = true;
    expect(await relay.runOnce()).toBe(0);
    expect(await unpublished()).toBe(3);

    bus.failing = false;
    expect(await relay.runOnce()).toBe(3);
    expect(bus.published.map((p) => nOf(p.event))).toEqual([1, 2, 3]);
    expect(await unpublished()).toBe(0);
    expect(await relay.runOnce()).toBe(0);
    expect(bus.published).toHaveLength(3);
  });

  it('stops at the first failed publish so nothing after it goes first', async () => {
    const bus = new RecordingBus();
    bus.failCall = 2;
    const relay = newRelay(bus);
    const work = new UnitOfWork(dataSource, schema, relay);
    await work.run(async (_manager, emit) => {
      for (let n = 1; n <= 3; n++) emit('video.transcription_vocabulary.updated', vocabulary('w4', n));
    });

    expect(await relay.runOnce()).toBe(1);
    expect(await unpublished()).toBe(2);
    expect(await relay.runOnce()).toBe(2);
    expect(bus.published.map((p) => nOf(p.event))).toEqual([1, 2, 3]);
  });

  it('publishes every event exactly once and in order with two relays running at once', async () => {
    const bus = new RecordingBus();
    bus.delayMs = 1; // publishing takes time, so the relays' runs overlap
    const [a, b] = [newRelay(bus), newRelay(bus)];
    const work = new UnitOfWork(dataSource, schema, { nudge: () => undefined });
    for (let batch = 0; batch < 5; batch++) {
      await work.run(async (_manager, emit) => {
        for (let i = 0; i < 50; i++) {
          const n = batch * 50 + i;
          emit('video.transcription_vocabulary.updated', vocabulary(`w${n % 7}`, n));
        }
      });
    }

    let contended = 0;
    while ((await unpublished()) > 0) {
      const [byA, byB] = await Promise.all([a.runOnce(), b.runOnce()]);
      if ((byA === 0) !== (byB === 0)) contended++;
    }

    const ns = bus.published.map((p) => nOf(p.event));
    expect(ns).toEqual(Array.from({ length: 250 }, (_, n) => n));
    expect(new Set(bus.published.map((p) => p.event.id)).size).toBe(250);
    expect(contended).toBeGreaterThan(0);
  });

  it('refuses an event whose data is not its schema’s, rolling the change back', async () => {
    const work = new UnitOfWork(dataSource, schema, { nudge: () => undefined });
    const wrong = { ...vocabulary('w5'), phrases: 'not a list' } as unknown as ReturnType<typeof vocabulary>;
    const extra = { ...vocabulary('w6'), signature: 'internal' };
    for (const data of [wrong, extra]) {
      await expect(
        work.run(async (manager, emit) => {
          await manager.query(`INSERT INTO "${schema}"."widgets" ("id", "name") VALUES ($1, $2)`, [data.id, 'doomed']);
          emit('video.transcription_vocabulary.created', data);
        }),
      ).rejects.toThrow(EventShapeError);
    }
    expect(await countRows(`SELECT count(*) AS n FROM "${schema}"."widgets"`)).toBe(0);
    expect(await countRows(`SELECT count(*) AS n FROM "${schema}"."outbox"`)).toBe(0);
  });

  it('markProcessed admits an event once per consumer', async () => {
    const eventId = randomUUID();
    const mark = (consumer: string) => dataSource.transaction((m) => markProcessed(m, schema, consumer, eventId));
    expect(await mark('webhooks')).toBe(true);
    expect(await mark('webhooks')).toBe(false);
    expect(await mark('analytics')).toBe(true);
  });

  it('runOnce commits the effect, its events and the processed record together, and runs a redelivery not at all', async () => {
    const work = new UnitOfWork(dataSource, schema, { nudge: () => undefined });
    const eventId = randomUUID();
    const effect = (id: string) => async (manager: EntityManager, emit: Emit) => {
      await manager.query(`INSERT INTO "${schema}"."widgets" ("id", "name") VALUES ($1, $2)`, [id, 'effect']);
      emit('video.transcription_vocabulary.updated', vocabulary(id));
    };
    const failing = async (manager: EntityManager) => {
      await manager.query(`INSERT INTO "${schema}"."widgets" ("id", "name") VALUES ('half', 'done')`);
      throw new Error('effect failed halfway');
    };
    await expect(work.runOnce('consumer-a', eventId, failing)).rejects.toThrow('effect failed halfway');
    const processed = () => countRows(`SELECT count(*) AS n FROM "${schema}"."processed_events" WHERE "event_id" = $1`, [eventId]);
    expect(await processed()).toBe(0); // nothing recorded: the redelivery will try again

    expect(await work.runOnce('consumer-a', eventId, effect('r1'))).toBe(true);
    expect(await work.runOnce('consumer-a', eventId, effect('r2'))).toBe(false);
    expect(await work.runOnce('consumer-b', eventId, effect('r3'))).toBe(true);
    expect(await countRows(`SELECT count(*) AS n FROM "${schema}"."widgets"`)).toBe(2);
    expect(await countRows(`SELECT count(*) AS n FROM "${schema}"."outbox"`)).toBe(2);
    expect(await processed()).toBe(2);
  });

  it('processOnce (services without an outbox) records the event with the effect, or neither', async () => {
    const eventId = randomUUID();
    const insert = (id: string) => async (manager: EntityManager) => {
      await manager.query(`INSERT INTO "${schema}"."widgets" ("id", "name") VALUES ($1, $2)`, [id, 'effect']);
    };
    await expect(
      processOnce(dataSource, schema, 'jobs', eventId, async (manager) => {
        await insert('p0')(manager);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await processOnce(dataSource, schema, 'jobs', eventId, insert('p1'))).toBe(true);
    expect(await processOnce(dataSource, schema, 'jobs', eventId, insert('p2'))).toBe(false);
    expect(await dataSource.query<unknown[]>(`SELECT "id" FROM "${schema}"."widgets"`)).toEqual([{ id: 'p1' }]);
  });

  it('carries events from Postgres through the outbox and Kafka to an idempotent consumer', async () => {
    const kafka = new KafkaBus({ brokers: kafkaBrokers.split(','), clientId: 'outbox-int-test' }, 3);
    cleanup.push(() => kafka.close());
    // a topic of this test's own, so no platform sharing the broker reads these events
    const topic = `test.outbox${randomUUID().slice(0, 8)}.v1`;
    const bus: EventBus = {
      ...kafka,
      start: () => kafka.start(),
      subscribe: (s) => kafka.subscribe(s),
      consumerLag: () => kafka.consumerLag(),
      close: () => kafka.close(),
      publish: (_t, key, e) => kafka.publish(topic, key, e),
    };
    const handled: Array<{ n: number; fresh: boolean }> = [];
    await bus.subscribe({
      group: `outbox-e2e-${randomUUID().slice(0, 8)}`,
      topics: [topic],
      handle: async (event) => {
        const fresh = await dataSource.transaction((m) => markProcessed(m, schema, 'outbox-e2e', event.id));
        handled.push({ n: nOf(event), fresh });
      },
    });
    await bus.start();
    const relay = newRelay(bus);
    relay.start();
    const work = new UnitOfWork(dataSource, schema, relay);

    for (let n = 1; n <= 3; n++) {
      await work.run(async (manager, emit) => {
        await manager.query(`INSERT INTO "${schema}"."widgets" ("id", "name") VALUES ($1, $2)`, [`k${n}`, `v${n}`]);
        emit('video.transcription_vocabulary.updated', vocabulary('k-same', n));
      });
    }

    await eventually(() => expect(handled).toEqual([1, 2, 3].map((n) => ({ n, fresh: true }))), { timeoutMs: 45_000 });
    expect(await unpublished()).toBe(0);
  });
});
