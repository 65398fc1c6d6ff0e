import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables every event-producing or -consuming service keeps in its own schema:
 * `outbox` (events written with the state change, published afterwards) and
 * `processed_events` (event ids a consumer group has handled, for idempotency).
 */
export function outboxMigrations(schema: string): Array<new () => MigrationInterface> {
  class CreateOutbox1732200000001 implements MigrationInterface {
    // TypeORM reads the timestamp from the name's last 13 characters; the migrations table
    // is per service, so the name needs no schema to be unique.
    name = 'CreateOutbox1732200000001';

    async up(q: QueryRunner): Promise<void> {
      await q.query(`
        CREATE TABLE IF NOT EXISTS "${schema}"."outbox" (
          "id" bigserial PRIMARY KEY,
          "event_id" text NOT NULL UNIQUE,
          "topic" text NOT NULL,
          "key" text NOT NULL,
          "payload" jsonb NOT NULL,
          "created_at" timestamptz NOT NULL DEFAULT now(),
          "published_at" timestamptz
        )`);
      await q.query(`CREATE INDEX IF NOT EXISTS "outbox_unpublished" ON "${schema}"."outbox" ("id") WHERE "published_at" IS NULL`);
      await q.query(processedEventsTable(schema));
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`DROP TABLE IF EXISTS "${schema}"."processed_events"`);
      await q.query(`DROP TABLE IF EXISTS "${schema}"."outbox"`);
    }
  }
  return [CreateOutbox1732200000001];
}

/** The DDL of `processed_events` (also for a consumer without an outbox, in its own migration). */
export function processedEventsTable(schema: string): string {
  return `
    CREATE TABLE IF NOT EXISTS "${schema}"."processed_events" (
      "consumer" text NOT NULL,
      "event_id" text NOT NULL,
      "processed_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("consumer", "event_id")
    )`;
}
