import { EntityManager } from 'typeorm';

/**
 * Idempotent consumers: record the event id in the same transaction as the effect.
 * Returns false when this consumer already handled the event (a redelivery).
 */
export async function markProcessed(manager: EntityManager, schema: string, consumer: string, eventId: string): Promise<boolean> {
  const rows = (await manager.query(
    `INSERT INTO "${schema}"."processed_events" ("consumer", "event_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "event_id"`,
    [consumer, eventId],
  )) as unknown[];
  return rows.length === 1;
}
