import { MigrationInterface, QueryRunner } from 'typeorm';

/** Live recordings keep their spans of content and slate (spec 2.1 `recording_times`). */
export class AssetRecordingTimes1732400000400 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assets"."assets" ADD COLUMN IF NOT EXISTS "recording_times" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assets"."assets" DROP COLUMN IF EXISTS "recording_times"`);
  }
}
