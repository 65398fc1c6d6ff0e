import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One job per asset (asset_id unique: a redelivered `video.asset.created` inserts nothing). A worker
 * holds a job while `lease_expires_at` is in the future; for a `queued` job it is the earliest time
 * of the next try (retry back-off).
 */
export class CreateJobs1732300000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "transcoder"."jobs" (
        "id" text PRIMARY KEY,
        "asset_id" text NOT NULL UNIQUE,
        "status" text NOT NULL CHECK ("status" IN ('queued', 'running', 'playable', 'done', 'errored', 'cancelled')),
        "attempts" integer NOT NULL DEFAULT 0,
        "worker" text,
        "lease_expires_at" timestamptz,
        "error" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS "jobs_open_created_at"
        ON "transcoder"."jobs" ("created_at", "id") WHERE "status" IN ('queued', 'running', 'playable')`);
    await q.query(`CREATE INDEX IF NOT EXISTS "jobs_created_at" ON "transcoder"."jobs" ("created_at" DESC, "id" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "transcoder"."jobs"`);
  }
}
