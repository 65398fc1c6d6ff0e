import { MigrationInterface, QueryRunner } from 'typeorm';

/** Warnings already sent per asset (video.asset.warning goes out once per asset and warning type). */
export class AssetWarnings1732400000500 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "assets"."asset_warnings" (
        "asset_id" text NOT NULL REFERENCES "assets"."assets" ("id") ON DELETE CASCADE,
        "type" text NOT NULL,
        "message" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("asset_id", "type")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "assets"."asset_warnings"`);
  }
}
