import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per asset (spec 2.1). What the transcoder learns (probe fields, tracks, input
 * info, errors) is null or empty until it reports; `updated_at` stays null until an update.
 */
export class CreateAssets1732400000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "assets"."assets" (
        "id" text PRIMARY KEY,
        "status" text NOT NULL,
        "inputs" jsonb NOT NULL,
        "passthrough" text,
        "max_resolution_tier" text NOT NULL,
        "encoding_tier" text NOT NULL,
        "video_quality" text NOT NULL,
        "mp4_support" text NOT NULL,
        "master_access" text NOT NULL,
        "normalize_audio" boolean NOT NULL,
        "test" boolean NOT NULL,
        "ingest_type" text NOT NULL,
        "upload_id" text,
        "live_stream_id" text,
        "duration" double precision,
        "max_stored_resolution" text,
        "resolution_tier" text,
        "max_stored_frame_rate" double precision,
        "aspect_ratio" text,
        "tracks" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "non_standard_input_reasons" jsonb,
        "input_info" jsonb,
        "errors" jsonb,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "assets_created_at" ON "assets"."assets" ("created_at" DESC, "id" DESC)`);
    await q.query(`CREATE INDEX IF NOT EXISTS "assets_live_stream_id" ON "assets"."assets" ("live_stream_id") WHERE "live_stream_id" IS NOT NULL`);
    await q.query(`CREATE INDEX IF NOT EXISTS "assets_upload_id" ON "assets"."assets" ("upload_id") WHERE "upload_id" IS NOT NULL`);
    // the test-asset sweeper looks for old test assets only
    await q.query(`CREATE INDEX IF NOT EXISTS "assets_test_created_at" ON "assets"."assets" ("created_at") WHERE "test"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "assets"."assets"`);
  }
}
