import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which live process holds a stream's encoder session or open recording, until when (renewed every
 * second), and when its encoder left: a process that dies leaves a lease that runs out, and the
 * stream is taken over (reconnect window, then the recording closed) by whichever process starts or
 * runs next.
 */
export class LiveStreamIngestLease1732600000300 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "live"."live_streams" ADD COLUMN IF NOT EXISTS "ingest_owner" text`);
    await q.query(`ALTER TABLE "live"."live_streams" ADD COLUMN IF NOT EXISTS "ingest_lease_until" timestamptz`);
    await q.query(`ALTER TABLE "live"."live_streams" ADD COLUMN IF NOT EXISTS "disconnected_at" timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "live"."live_streams" DROP COLUMN IF EXISTS "disconnected_at"`);
    await q.query(`ALTER TABLE "live"."live_streams" DROP COLUMN IF EXISTS "ingest_lease_until"`);
    await q.query(`ALTER TABLE "live"."live_streams" DROP COLUMN IF EXISTS "ingest_owner"`);
  }
}
