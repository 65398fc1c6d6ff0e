import { randomUUID } from 'node:crypto';
import { PlatformEvent } from './event-bus.port';
import { EventData, EventType } from './event-registry';
import { checkEmittedData } from './event-validation';

/** An event as a producer emitted it, before it has an id and a time; its object comes from the registry. */
export interface NewEvent {
  type: EventType;
  object: { type: string; id: string };
  data: Record<string, unknown>;
}

/** A registered event type with data of its shape. Throws EventShapeError on anything else. */
export function newEvent<T extends EventType>(type: T, data: EventData<T>): NewEvent {
  const checked = checkEmittedData(type, data);
  return { type, object: { type: checked.definition.objectType, id: checked.definition.key(checked.data) }, data: checked.data };
}

export function toPlatformEvent(event: NewEvent, now = new Date()): PlatformEvent {
  return { id: randomUUID(), type: event.type, occurred_at: now.toISOString(), object: { ...event.object }, data: event.data };
}
