import { newId } from '@platform/ids';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One delivery per event (unique event id: a redelivered event is recorded once), sent in
 * `seq` order within an object, and one row per POST attempt. `environment` holds the one
 * environment id every webhook body names, chosen once so it stays the same across restarts
 * and replicas.
 */
export class CreateDeliveries1732400000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "webhooks"."environment" (
        "singleton" boolean PRIMARY KEY DEFAULT true CHECK ("singleton"),
        "id" text NOT NULL,
        "name" text NOT NULL
      )`);
    await q.query(`INSERT INTO "webhooks"."environment" ("id", "name") VALUES ($1, 'Production') ON CONFLICT DO NOTHING`, [newId(6).toLowerCase()]);
    await q.query(`
      CREATE TABLE IF NOT EXISTS "webhooks"."deliveries" (
        "id" text PRIMARY KEY,
        "seq" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        "event_id" text NOT NULL UNIQUE,
        "event_type" text NOT NULL,
        "object_type" text NOT NULL,
        "object_id" text NOT NULL,
        "url" text NOT NULL,
        "body" json NOT NULL,
        "status" text NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'delivered', 'failed')),
        "attempt_count" integer NOT NULL DEFAULT 0,
        "next_attempt_at" timestamptz DEFAULT now(),
        "claimed_until" timestamptz,
        "claim_token" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "completed_at" timestamptz
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "deliveries_object" ON "webhooks"."deliveries" ("object_id", "seq")`);
    await q.query(`CREATE INDEX IF NOT EXISTS "deliveries_pending_due" ON "webhooks"."deliveries" ("next_attempt_at") WHERE "status" = 'pending'`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS "webhooks"."delivery_attempts" (
        "id" text PRIMARY KEY,
        "delivery_id" text NOT NULL REFERENCES "webhooks"."deliveries" ("id") ON DELETE CASCADE,
        "number" integer NOT NULL,
        "attempted_at" timestamptz NOT NULL,
        "address" text NOT NULL,
        "response_status_code" integer NOT NULL,
        "response_headers" json,
        "response_body" text,
        "error" text,
        "duration_ms" integer NOT NULL,
        UNIQUE ("delivery_id", "number")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "webhooks"."delivery_attempts"`);
    await q.query(`DROP TABLE IF EXISTS "webhooks"."deliveries"`);
    await q.query(`DROP TABLE IF EXISTS "webhooks"."environment"`);
  }
}
