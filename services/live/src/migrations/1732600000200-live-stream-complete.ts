import { MigrationInterface, QueryRunner } from 'typeorm';

/** `PUT …/complete` while a recording is under way: when it was asked (the ingest ends the recording). */
export class LiveStreamComplete1732600000200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "live"."live_streams" ADD COLUMN IF NOT EXISTS "complete_requested_at" timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "live"."live_streams" DROP COLUMN IF EXISTS "complete_requested_at"`);
  }
}
