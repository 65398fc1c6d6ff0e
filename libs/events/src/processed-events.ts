import { DataSource, EntityManager } from 'typeorm';

/**
 * Idempotent consumers: the event id is recorded in the schema's `processed_events` in the same
 * transaction as the effect. Returns false when this consumer already handled the event (a
 * redelivery); the caller then does nothing.
 */
export async function markProcessed(manager: EntityManager, schema: string, consumer: string, eventId: string): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `INSERT INTO "${schema}"."processed_events" ("consumer", "event_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "event_id"`,
    [consumer, eventId],
  );
  return rows.length === 1;
}

/**
 * Runs `work` once per event and consumer: in one transaction with the record of the event id, so
 * the effect and the record commit together (a failed effect records nothing, and the redelivery
 * tries again); an event already recorded runs nothing. Returns whether `work` ran.
 * For services without an outbox; those with one use `UnitOfWork.runOnce` (effect, events and
 * record in one transaction).
 */
export async function processOnce(
  dataSource: DataSource,
  schema: string,
  consumer: string,
  eventId: string,
  work: (manager: EntityManager) => Promise<void>,
): Promise<boolean> {
  return dataSource.transaction(async (manager) => {
    if (!(await markProcessed(manager, schema, consumer, eventId))) return false;
    await work(manager);
    return true;
  });
}

/** One consumer's `processed_events`, for services without a UnitOfWork (`processOnce` bound to its schema and name). */
export class ProcessedEvents {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    readonly consumer: string,
  ) {}

  once(eventId: string, work: (manager: EntityManager) => Promise<void>): Promise<boolean> {
    return processOnce(this.dataSource, this.schema, this.consumer, eventId, work);
  }
}
