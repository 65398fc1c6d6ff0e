import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reconnect that lands on another live process while the stream's recording is held open in its
 * reconnect window by a running one: the new process takes the stream and sets `ingest_handover_at`;
 * the holder stores its last segments, lets its recording go without closing it and clears the
 * column; the new process then restores the recording from the store and continues it.
 */
export class LiveStreamHandover1732600000500 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "live"."live_streams" ADD COLUMN IF NOT EXISTS "ingest_handover_at" timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "live"."live_streams" DROP COLUMN IF EXISTS "ingest_handover_at"`);
  }
}
