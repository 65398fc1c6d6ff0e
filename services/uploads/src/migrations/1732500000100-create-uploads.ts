import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per direct upload (spec 2.6). `write` is the object store's resumable-write state
 * (null until the first byte); `completed_at` is set when the last byte is in (the asset is then
 * being created); `claim_*` lets one request at a time write an upload, whichever pod it reaches.
 */
export class CreateUploads1732500000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "uploads"."uploads" (
        "id" text PRIMARY KEY,
        "status" text NOT NULL,
        "timeout" integer NOT NULL,
        "cors_origin" text,
        "new_asset_settings" jsonb,
        "test" boolean NOT NULL,
        "asset_id" text,
        "error" jsonb,
        "signature" text NOT NULL,
        "expires_at" timestamptz NOT NULL,
        "write" jsonb,
        "total_bytes" bigint,
        "claim_token" text,
        "claim_until" timestamptz,
        "completed_at" timestamptz,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "uploads_created_at" ON "uploads"."uploads" ("created_at" DESC, "id" DESC)`);
    // the sweeper looks only at uploads still waiting
    await q.query(`CREATE INDEX IF NOT EXISTS "uploads_waiting_expires_at" ON "uploads"."uploads" ("expires_at") WHERE "status" = 'waiting'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "uploads"."uploads"`);
  }
}
