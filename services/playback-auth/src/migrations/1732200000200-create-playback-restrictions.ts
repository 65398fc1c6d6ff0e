import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePlaybackRestrictions1732200000200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "playback_auth"."playback_restrictions" (
        "id" text PRIMARY KEY,
        "allowed_domains" text[] NOT NULL,
        "allow_no_referrer" boolean NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS "playback_restrictions_created_at"
        ON "playback_auth"."playback_restrictions" ("created_at" DESC, "id" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "playback_auth"."playback_restrictions"`);
  }
}
