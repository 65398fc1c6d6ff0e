import { processedEventsTable } from '@platform/events';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { SCHEMA } from '../schema';

/** The asset events the consumer group `transcoder` has handled (idempotency: a redelivery does nothing). */
export class CreateProcessedEvents1732300000300 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(processedEventsTable(SCHEMA));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS "${SCHEMA}"."processed_events"`);
  }
}
