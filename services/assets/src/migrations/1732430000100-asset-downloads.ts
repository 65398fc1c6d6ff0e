import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Static MP4 renditions and the temporary master MP4 (spec 2.1 `static_renditions`, `master`).
 * `static_renditions` holds every file (mp4_support's once made, the Static Renditions API's from
 * their request on), `static_renditions_status` the aggregate of mp4_support's (null when it is
 * `none`). A master has a status, and once ready the random token of its URL, the URL and when it
 * stops working; the token is unique (the playback host looks the asset up by it) and the sweeper
 * looks for expired masters only.
 */
export class AssetDownloads1732430000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE "assets"."assets"
        ADD COLUMN IF NOT EXISTS "static_renditions" jsonb NOT NULL DEFAULT '[]'::jsonb,
        ADD COLUMN IF NOT EXISTS "static_renditions_status" text,
        ADD COLUMN IF NOT EXISTS "master_status" text,
        ADD COLUMN IF NOT EXISTS "master_token" text,
        ADD COLUMN IF NOT EXISTS "master_url" text,
        ADD COLUMN IF NOT EXISTS "master_expires_at" timestamptz`);
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS "assets_master_token" ON "assets"."assets" ("master_token") WHERE "master_token" IS NOT NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS "assets_master_expires_at" ON "assets"."assets" ("master_expires_at") WHERE "master_expires_at" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "assets"."assets_master_expires_at"`);
    await q.query(`DROP INDEX IF EXISTS "assets"."assets_master_token"`);
    await q.query(`
      ALTER TABLE "assets"."assets"
        DROP COLUMN IF EXISTS "static_renditions",
        DROP COLUMN IF EXISTS "static_renditions_status",
        DROP COLUMN IF EXISTS "master_status",
        DROP COLUMN IF EXISTS "master_token",
        DROP COLUMN IF EXISTS "master_url",
        DROP COLUMN IF EXISTS "master_expires_at"`);
  }
}
