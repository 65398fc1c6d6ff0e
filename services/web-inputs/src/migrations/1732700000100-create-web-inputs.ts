import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebInputs1732700000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "web_inputs"."web_inputs" (
        "id" text PRIMARY KEY,
        "url" text NOT NULL,
        "auto_launch" boolean NOT NULL,
        "live_stream_id" text NOT NULL,
        "status" text NOT NULL,
        "passthrough" text,
        "resolution" text NOT NULL,
        "timeout" integer NOT NULL,
        "launched_at" timestamptz,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "web_inputs_created_at" ON "web_inputs"."web_inputs" ("created_at" DESC, "id" DESC)`);
    await q.query(`CREATE INDEX IF NOT EXISTS "web_inputs_live_stream" ON "web_inputs"."web_inputs" ("live_stream_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "web_inputs"."web_inputs"`);
  }
}
