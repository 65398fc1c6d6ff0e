import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mux's user-agent rule. The defaults are Mux's (both allow), so restrictions created before
 * this column existed keep behaving as they did: no user agent was ever refused.
 */
export class AddUserAgentRule1732200000300 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE "playback_auth"."playback_restrictions"
        ADD COLUMN IF NOT EXISTS "allow_no_user_agent" boolean NOT NULL DEFAULT true,
        ADD COLUMN IF NOT EXISTS "allow_high_risk_user_agent" boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE "playback_auth"."playback_restrictions"
        DROP COLUMN IF EXISTS "allow_no_user_agent",
        DROP COLUMN IF EXISTS "allow_high_risk_user_agent"`);
  }
}
