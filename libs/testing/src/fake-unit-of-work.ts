import { Emit, NewEvent, newEvent, UnitOfWork } from '@platform/events';
import { EntityManager } from 'typeorm';

/**
 * A UnitOfWork for unit tests: runs the work with a stand-in manager and keeps the events
 * of works that succeeded (like the real one, a failed work emits nothing). Each event is checked
 * against the registry as the real one checks it, so a wrongly shaped event fails the test.
 * `processed` holds the `consumer:eventId` pairs `runOnce` recorded.
 */
export function fakeUnitOfWork(): { unitOfWork: UnitOfWork; manager: EntityManager; events: NewEvent[]; processed: Set<string> } {
  const manager = { fake: 'entity-manager' } as unknown as EntityManager;
  const events: NewEvent[] = [];
  const processed = new Set<string>();
  const run = async <T>(work: (manager: EntityManager, emit: Emit) => Promise<T>): Promise<T> => {
    const pending: NewEvent[] = [];
    const result = await work(manager, (type, data) => void pending.push(newEvent(type, data)));
    events.push(...pending);
    return result;
  };
  const unitOfWork = {
    run,
    async runOnce(consumer: string, eventId: string, work: (manager: EntityManager, emit: Emit) => Promise<void>): Promise<boolean> {
      const key = `${consumer}:${eventId}`;
      if (processed.has(key)) return false;
      await run(work);
      processed.add(key);
      return true;
    },
  } as unknown as UnitOfWork;
  return { unitOfWork, manager, events, processed };
}
