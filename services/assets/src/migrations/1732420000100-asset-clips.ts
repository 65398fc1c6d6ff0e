import { MigrationInterface, QueryRunner } from 'typeorm';

/** Clips: the source asset and the cut, in seconds of the source (the end resolved at create when not given). */
export class AssetClips1732420000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "assets"."assets" ADD COLUMN IF NOT EXISTS "source_asset_id" text,
        ADD COLUMN IF NOT EXISTS "clip_start_time" double precision, ADD COLUMN IF NOT EXISTS "clip_end_time" double precision`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "assets"."assets" DROP COLUMN IF EXISTS "source_asset_id", DROP COLUMN IF EXISTS "clip_start_time", DROP COLUMN IF EXISTS "clip_end_time"`,
    );
  }
}
