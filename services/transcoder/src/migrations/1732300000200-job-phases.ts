import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job runs in two phases claimed by different slots: `ingest` (download, probe, quick source
 * rendition) and `ladder` (the encoded renditions). `playable`: the asset plays from its source
 * rendition, so its ladder may wait behind ladders of assets that do not play yet. `input_key`: where
 * the ingest phase left the input for the ladder phase (object store).
 */
export class JobPhases1732300000200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "transcoder"."jobs" ADD COLUMN IF NOT EXISTS "phase" text NOT NULL DEFAULT 'ingest'`);
    await q.query(`ALTER TABLE "transcoder"."jobs" ADD COLUMN IF NOT EXISTS "playable" boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE "transcoder"."jobs" ADD COLUMN IF NOT EXISTS "input_key" text`);
    await q.query(`ALTER TABLE "transcoder"."jobs" DROP CONSTRAINT IF EXISTS "jobs_phase_check"`);
    await q.query(`ALTER TABLE "transcoder"."jobs" ADD CONSTRAINT "jobs_phase_check" CHECK ("phase" IN ('ingest', 'ladder'))`);
    await q.query(`UPDATE "transcoder"."jobs" SET "playable" = true WHERE "status" = 'playable'`);
    await q.query(`DROP INDEX IF EXISTS "transcoder"."jobs_open_created_at"`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS "jobs_open_phase"
        ON "transcoder"."jobs" ("phase", "playable", "created_at", "id") WHERE "status" IN ('queued', 'running', 'playable')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "transcoder"."jobs_open_phase"`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS "jobs_open_created_at"
        ON "transcoder"."jobs" ("created_at", "id") WHERE "status" IN ('queued', 'running', 'playable')`);
    await q.query(`ALTER TABLE "transcoder"."jobs" DROP CONSTRAINT IF EXISTS "jobs_phase_check"`);
    await q.query(`ALTER TABLE "transcoder"."jobs" DROP COLUMN IF EXISTS "input_key"`);
    await q.query(`ALTER TABLE "transcoder"."jobs" DROP COLUMN IF EXISTS "playable"`);
    await q.query(`ALTER TABLE "transcoder"."jobs" DROP COLUMN IF EXISTS "phase"`);
  }
}
