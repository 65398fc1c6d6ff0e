import { randomUUID } from 'node:crypto';
import { PlatformEvent } from './event-bus.port';

export interface NewEvent<TData = Record<string, unknown>> {
  type: string;
  object: { type: string; id: string };
  data: TData;
}

export function toPlatformEvent(event: NewEvent, now = new Date()): PlatformEvent {
  return { id: randomUUID(), type: event.type, occurred_at: now.toISOString(), object: event.object, data: event.data };
}
