import { Emit, NewEvent, UnitOfWork } from '@platform/events';
import { EntityManager } from 'typeorm';

/**
 * A UnitOfWork for unit tests: runs the work with a stand-in manager and keeps the events
 * of works that succeeded (like the real one, a failed work emits nothing).
 */
export function fakeUnitOfWork(): { unitOfWork: UnitOfWork; manager: EntityManager; events: NewEvent[] } {
  const manager = { fake: 'entity-manager' } as unknown as EntityManager;
  const events: NewEvent[] = [];
  const unitOfWork = {
    async run<T>(work: (manager: EntityManager, emit: Emit) => Promise<T>): Promise<T> {
      const pending: NewEvent[] = [];
      const result = await work(manager, (event) => pending.push(event));
      events.push(...pending);
      return result;
    },
  } as unknown as UnitOfWork;
  return { unitOfWork, manager, events };
}
