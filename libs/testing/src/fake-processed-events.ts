import { ProcessedEvents } from '@platform/events';
import { EntityManager } from 'typeorm';

/**
 * ProcessedEvents in memory: `once` runs the work for an event id not seen yet, and records the id
 * only when the work succeeds (as the real one commits both or neither).
 */
export function fakeProcessedEvents(): Pick<ProcessedEvents, 'once'> & { ids: Set<string> } {
  const ids = new Set<string>();
  const manager = { fake: 'entity-manager' } as unknown as EntityManager;
  return {
    ids,
    async once(eventId: string, work: (manager: EntityManager) => Promise<void>): Promise<boolean> {
      if (ids.has(eventId)) return false;
      await work(manager);
      ids.add(eventId);
      return true;
    },
  };
}
