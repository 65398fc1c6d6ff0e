import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Only the public half of a key is kept. A deleted key keeps its row (deleted_at set) so
 * its id is never looked up or reused again.
 */
export class CreateSigningKeys1732200000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "playback_auth"."signing_keys" (
        "id" text PRIMARY KEY,
        "public_key" text NOT NULL,
        "created_at" timestamptz NOT NULL,
        "deleted_at" timestamptz
      )`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS "signing_keys_active_created_at"
        ON "playback_auth"."signing_keys" ("created_at" DESC, "id" DESC) WHERE "deleted_at" IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "playback_auth"."signing_keys"`);
  }
}
