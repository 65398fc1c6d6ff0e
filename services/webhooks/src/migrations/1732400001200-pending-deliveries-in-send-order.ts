import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pending deliveries indexed in the order the dispatcher claims them (`claimDue`: ORDER BY
 * next_attempt_at, occurred_at, seq … LIMIT n). With only next_attempt_at indexed, every claim
 * filtered and sorted the whole pending backlog (5–15 ms a claim on PGlite with a few thousand
 * pending, issue 12), so a busy platform fell further behind the more it had to send; now the
 * claim walks the index and stops after n rows. It replaces the next_attempt_at index it extends.
 */
export class PendingDeliveriesInSendOrder1732400001200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX IF NOT EXISTS "deliveries_pending_send_order" ON "webhooks"."deliveries" ("next_attempt_at", "occurred_at", "seq") WHERE "status" = 'pending'`,
    );
    await q.query(`DROP INDEX IF EXISTS "webhooks"."deliveries_pending_due"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS "deliveries_pending_due" ON "webhooks"."deliveries" ("next_attempt_at") WHERE "status" = 'pending'`);
    await q.query(`DROP INDEX IF EXISTS "webhooks"."deliveries_pending_send_order"`);
  }
}
