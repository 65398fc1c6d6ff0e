import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event's time on each delivery: an object's events come from different topics and may be
 * recorded out of order, so they are sent in the order they happened (then `seq`).
 */
export class DeliveryOccurredAt1732400000200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks"."deliveries" ADD COLUMN IF NOT EXISTS "occurred_at" timestamptz`);
    await q.query(`UPDATE "webhooks"."deliveries" SET "occurred_at" = "created_at" WHERE "occurred_at" IS NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS "deliveries_object_occurred" ON "webhooks"."deliveries" ("object_id", "occurred_at", "seq")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "webhooks"."deliveries_object_occurred"`);
    await q.query(`ALTER TABLE "webhooks"."deliveries" DROP COLUMN IF EXISTS "occurred_at"`);
  }
}
