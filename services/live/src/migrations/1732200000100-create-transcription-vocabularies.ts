import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTranscriptionVocabularies1732200000100 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS "live"."transcription_vocabularies" (
        "id" text PRIMARY KEY,
        "name" text,
        "phrases" text[] NOT NULL,
        "passthrough" text,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS "transcription_vocabularies_created_at"
        ON "live"."transcription_vocabularies" ("created_at" DESC, "id" DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "live"."transcription_vocabularies"`);
  }
}
