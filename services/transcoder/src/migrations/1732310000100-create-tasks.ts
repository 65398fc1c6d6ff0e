import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Asset tasks: work on an asset besides its transcoding job (a text or audio track, generated
 * subtitles, static MP4 renditions, a master file), one row per (asset, kind, target). `after_ladder`:
 * the task waits until the asset's job has no open phase. A worker holds a task while
 * `lease_expires_at` is in the future; for a `queued` task it is the earliest time of the next try.
 */
export class CreateTasks1732310000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "transcoder"."tasks" (
        "id" text PRIMARY KEY,
        "asset_id" text NOT NULL,
        "kind" text NOT NULL,
        "target" text NOT NULL DEFAULT '',
        "status" text NOT NULL CHECK ("status" IN ('queued', 'running', 'done', 'errored', 'cancelled')),
        "after_ladder" boolean NOT NULL DEFAULT false,
        "attempts" integer NOT NULL DEFAULT 0,
        "worker" text,
        "lease_expires_at" timestamptz,
        "error" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("asset_id", "kind", "target")
      )`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS "tasks_open_created_at"
        ON "transcoder"."tasks" ("created_at", "id") WHERE "status" IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "transcoder"."tasks"`);
  }
}
