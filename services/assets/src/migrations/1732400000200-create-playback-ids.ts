import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Playback ids of assets. No foreign key: deleting an asset deletes its playback ids in
 * the same transaction, explicitly (src/playback-ids/playback-id.repository.ts).
 */
export class CreatePlaybackIds1732400000200 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "assets"."playback_ids" (
        "id" text PRIMARY KEY,
        "asset_id" text NOT NULL,
        "policy" text NOT NULL,
        "created_at" timestamptz NOT NULL,
        -- insertion order: an asset lists its playback ids in the order they were made
        "seq" bigserial NOT NULL
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS "playback_ids_asset_id" ON "assets"."playback_ids" ("asset_id", "seq")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "assets"."playback_ids"`);
  }
}
