import { MigrationInterface, QueryRunner } from 'typeorm';

/** Mux's `thumbnail_time`: seconds into the asset of a thumbnail asked for without a time; null when not set. */
export class AssetThumbnailTime1732440000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assets"."assets" ADD COLUMN IF NOT EXISTS "thumbnail_time" double precision`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assets"."assets" DROP COLUMN IF EXISTS "thumbnail_time"`);
  }
}
