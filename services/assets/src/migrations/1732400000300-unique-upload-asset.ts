import { MigrationInterface, QueryRunner } from 'typeorm';

/** One asset per direct upload: the uploads service's retried CreateAsset cannot make a second one. */
export class UniqueUploadAsset1732400000300 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "assets"."assets_upload_id"`);
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS "assets_upload_id_unique" ON "assets"."assets" ("upload_id") WHERE "upload_id" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "assets"."assets_upload_id_unique"`);
    await q.query(`CREATE INDEX IF NOT EXISTS "assets_upload_id" ON "assets"."assets" ("upload_id") WHERE "upload_id" IS NOT NULL`);
  }
}
