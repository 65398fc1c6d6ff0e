import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSpaces1732800000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "spaces"."spaces" (
        "id" text PRIMARY KEY,
        "type" text NOT NULL,
        "status" text NOT NULL,
        "passthrough" text,
        "active_session_id" text,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "spaces_created_at" ON "spaces"."spaces" ("created_at" DESC, "id" DESC)`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS "spaces"."broadcasts" (
        "id" text PRIMARY KEY,
        "space_id" text NOT NULL REFERENCES "spaces"."spaces" ("id") ON DELETE CASCADE,
        "live_stream_id" text NOT NULL,
        "status" text NOT NULL,
        "layout" text NOT NULL,
        "background" text,
        "resolution" text NOT NULL,
        "passthrough" text,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "broadcasts_space" ON "spaces"."broadcasts" ("space_id", "created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "spaces"."broadcasts"`);
    await q.query(`DROP TABLE IF EXISTS "spaces"."spaces"`);
  }
}
