import { DeliveryInfo, EventBus, PlatformEvent } from './event-bus.port';
import { EventData, EventObjectType, EventType, topicOf } from './event-registry';
import { platformMetrics } from '@platform/metrics';
import { validateEvent } from './event-validation';

/** An event of a registered type, its data typed by the registry (narrowed by `type`). */
export type RegisteredEvent<T extends EventType = EventType> = T extends EventType
  ? Omit<PlatformEvent, 'type' | 'object' | 'data'> & { type: T; object: { type: EventObjectType<T>; id: string }; data: EventData<T> }
  : never;

export interface EventSubscription<T extends EventType> {
  /** Consumer group (also the consumer's name in `processed_events`). */
  group: string;
  types: readonly T[];
  handle: (event: RegisteredEvent<T>, info: DeliveryInfo) => Promise<void>;
}

/**
 * How every consumer subscribes: to the topics of registered types, each event validated
 * (envelope, type, topic, object type, data schema) before the handler sees it; an invalid one
 * goes to the dead-letter topic at once with the reason.
 */
export function subscribeEvents<T extends EventType>(bus: EventBus, subscription: EventSubscription<T>): Promise<void> {
  const { group, types, handle } = subscription;
  const consumed = platformMetrics.eventsConsumed();
  return bus.subscribe({
    group,
    topics: types.map(topicOf),
    validate: (event, topic) => validateEvent(event, topic, types),
    handle: async (event, info) => {
      try {
        await handle(event as RegisteredEvent<T>, info);
        consumed.inc({ group, outcome: 'handled' });
      } catch (err) {
        consumed.inc({ group, outcome: 'failed' }); // retried, then dead-lettered
        throw err;
      }
    },
  });
}
