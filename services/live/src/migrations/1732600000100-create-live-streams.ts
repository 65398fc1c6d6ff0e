import { MigrationInterface, QueryRunner } from 'typeorm';

/** Live streams (spec 2.3), their playback ids and simulcast targets. */
export class CreateLiveStreams1732600000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "live"."live_streams" (
        "id" text PRIMARY KEY,
        "stream_key" text NOT NULL,
        "srt_passphrase" text NOT NULL,
        "status" text NOT NULL,
        "active_ingest_protocol" text,
        "active_asset_id" text,
        "recent_asset_ids" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "new_asset_settings" jsonb,
        "passthrough" text,
        "audio_only" boolean NOT NULL,
        "embedded_subtitles" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "generated_subtitles" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "reconnect_window" double precision NOT NULL,
        "use_slate_for_standard_latency" boolean NOT NULL,
        "reconnect_slate_url" text,
        "latency_mode" text NOT NULL,
        "test" boolean NOT NULL,
        "max_continuous_duration" integer NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz
      )`);
    // the ingest looks streams up by key; a key is never shared
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS "live_streams_stream_key" ON "live"."live_streams" ("stream_key")`);
    await q.query(`CREATE INDEX IF NOT EXISTS "live_streams_created_at" ON "live"."live_streams" ("created_at" DESC, "id" DESC)`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS "live"."playback_ids" (
        "id" text PRIMARY KEY,
        "live_stream_id" text NOT NULL REFERENCES "live"."live_streams" ("id") ON DELETE CASCADE,
        "policy" text NOT NULL,
        "created_at" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "playback_ids_live_stream_id" ON "live"."playback_ids" ("live_stream_id", "created_at")`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS "live"."simulcast_targets" (
        "id" text PRIMARY KEY,
        "live_stream_id" text NOT NULL REFERENCES "live"."live_streams" ("id") ON DELETE CASCADE,
        "passthrough" text,
        "status" text NOT NULL,
        "stream_key" text,
        "url" text NOT NULL,
        "error_severity" text,
        "created_at" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "simulcast_targets_live_stream_id" ON "live"."simulcast_targets" ("live_stream_id", "created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "live"."simulcast_targets"`);
    await q.query(`DROP TABLE IF EXISTS "live"."playback_ids"`);
    await q.query(`DROP TABLE IF EXISTS "live"."live_streams"`);
  }
}
