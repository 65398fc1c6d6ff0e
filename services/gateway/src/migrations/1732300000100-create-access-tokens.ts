import { MigrationInterface, QueryRunner } from 'typeorm';

/** Access tokens: only a SHA-256 of each secret is kept. A revoked token keeps its row. */
export class CreateAccessTokens1732300000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "gateway"."access_tokens" (
        "id" text PRIMARY KEY,
        "name" text NOT NULL,
        "secret_hash" text NOT NULL,
        "permissions" text[] NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "revoked_at" timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "gateway"."access_tokens"`);
  }
}
