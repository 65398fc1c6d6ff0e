import { DataSource, EntityManager } from 'typeorm';
import { EventData, EventType, topicOf } from './event-registry';
import { NewEvent, newEvent, toPlatformEvent } from './new-event';
import { OutboxRelay } from './outbox-relay';
import { markProcessed } from './processed-events';

/**
 * Emits a registered event with data of its shape: an unregistered type or other data does not
 * compile, and data that is not exactly its schema's (checked at run time too) throws
 * EventShapeError, which rolls the unit of work back.
 */
export type Emit = <T extends EventType>(type: T, data: EventData<T>) => void;

let lastStamp = 0;
/**
 * Strictly increasing event times within the process: events of one transaction, and of quick
 * successive ones, keep their order in `occurred_at` (consumers of different topics, such as the
 * webhook dispatcher, order an object's events by it).
 */
export function nextEventTime(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}

/**
 * A state change and the events it causes, committed together (transactional outbox).
 * Events reach the bus only after the commit; a rolled-back change emits nothing.
 */
export class UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly relay: Pick<OutboxRelay, 'nudge'>,
  ) {}

  async run<T>(work: (manager: EntityManager, emit: Emit) => Promise<T>): Promise<T> {
    const events: NewEvent[] = [];
    const result = await this.dataSource.transaction(async (manager) => {
      const value = await work(manager, (type, data) => void events.push(newEvent(type, data)));
      await this.writeOutbox(manager, events);
      return value;
    });
    if (events.length > 0) this.relay.nudge();
    return result;
  }

  /**
   * A consumer's handling of one event: the effect, its events and the record that `consumer`
   * processed `eventId` commit together; a redelivered event runs nothing. Returns whether `work` ran.
   */
  async runOnce(consumer: string, eventId: string, work: (manager: EntityManager, emit: Emit) => Promise<void>): Promise<boolean> {
    return this.run(async (manager, emit) => {
      if (!(await markProcessed(manager, this.schema, consumer, eventId))) return false;
      await work(manager, emit);
      return true;
    });
  }

  private async writeOutbox(manager: EntityManager, events: NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const params: unknown[] = [];
    const rows = events.map((event) => {
      const full = toPlatformEvent(event, nextEventTime());
      params.push(full.id, topicOf(event.type), full.object.id, JSON.stringify(full));
      const n = params.length;
      return `($${n - 3}, $${n - 2}, $${n - 1}, $${n}::jsonb)`;
    });
    await manager.query(`INSERT INTO "${this.schema}"."outbox" ("event_id", "topic", "key", "payload") VALUES ${rows.join(', ')}`, params);
  }
}
