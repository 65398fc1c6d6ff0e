import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * generated_live_final passes under way: a pass a stopped or killed process did not finish is
 * resumed by the next one (its lease runs out, or is let go at shutdown), so the track never stays
 * `preparing`.
 */
export class FinalSubtitlePasses1732600000400 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "live"."final_subtitle_passes" (
        "asset_id" text PRIMARY KEY,
        "track_id" text NOT NULL,
        "live_stream_id" text NOT NULL,
        "latency_mode" text NOT NULL,
        "subtitles" jsonb NOT NULL,
        "owner" text,
        "lease_until" timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "live"."final_subtitle_passes"`);
  }
}
