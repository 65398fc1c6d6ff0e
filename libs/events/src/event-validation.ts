import { z } from 'zod';
import { PlatformEvent } from './event-bus.port';
import { EventDefinition } from './event-definition';
import { definitionOf, EventType, topicOf } from './event-registry';

/** A producer tried to emit what the registry does not allow: a bug, refused before anything is written. */
export class EventShapeError extends Error {
  override readonly name = 'EventShapeError';
}

/** zod's issues as one line: `status: Invalid option…; tracks.0.id: …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

/**
 * The producer's check: the data must be exactly what its schema describes. Fields the schema
 * does not have (an internal column leaking into a webhook) and values it would change are
 * refused, not stripped. Returns the data as JSON carries it (no undefined fields).
 */
export function checkEmittedData(type: string, data: unknown): { definition: EventDefinition; data: Record<string, unknown> } {
  const definition = definitionOf(type);
  if (!definition) throw new EventShapeError(`${type} is not a registered event type`);
  const json = JSON.parse(JSON.stringify(data ?? null)) as unknown;
  const parsed = definition.data.safeParse(json);
  if (!parsed.success) throw new EventShapeError(`${type}: data does not match its schema: ${describeIssues(parsed.error)}`);
  const difference = firstDifference(json, parsed.data);
  if (difference) throw new EventShapeError(`${type}: data does not match its schema: ${difference}`);
  return { definition, data: json as Record<string, unknown> };
}

/**
 * The consumer's check of an envelope it received on `topic`: a registered type (one of
 * `types`, when given) on its own topic, about its own kind of object, with data its schema
 * accepts (fields it does not know are allowed: a newer producer may add some). Returns why
 * not, or undefined when the event is valid.
 */
export function validateEvent(event: PlatformEvent, topic: string, types?: readonly EventType[]): string | undefined {
  const definition = definitionOf(event.type);
  if (!definition || (types && !types.includes(event.type as EventType))) return `type ${event.type} is not one this consumer reads`;
  const expectedTopic = topicOf(event.type as EventType);
  if (topic !== expectedTopic) return `${event.type} arrived on ${topic}; its topic is ${expectedTopic}`;
  if (event.object.type !== definition.objectType) return `object.type ${event.object.type} is not ${definition.objectType}`;
  const parsed = definition.data.safeParse(event.data);
  if (!parsed.success) return `data does not match ${expectedTopic}: ${describeIssues(parsed.error)}`;
  const key = definition.key(parsed.data);
  if (key !== event.object.id) return `object.id ${event.object.id} is not the data's id ${key}`;
  return undefined;
}

/** Where JSON value `a` and schema output `b` first differ (`a` has what `b` lacks, or another value), or undefined; an undefined field of `b` is absent. */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  const where = path || '(root)';
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${where} has ${a.length} items, the schema keeps ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], path ? `${path}.${i}` : String(i));
      if (d) return d;
    }
    return undefined;
  }
  if (isRecord(a) && isRecord(b)) {
    for (const key of Object.keys(a)) {
      const at = path ? `${path}.${key}` : key;
      if (!(key in b)) return `${at} is not a field of the schema`;
      const d = firstDifference(a[key], b[key], at);
      if (d) return d;
    }
    const missing = Object.keys(b).find((key) => !(key in a) && b[key] !== undefined);
    return missing === undefined ? undefined : `${path ? `${path}.${missing}` : missing} would be added by the schema`;
  }
  return Object.is(a, b) ? undefined : `${where} would become ${JSON.stringify(b)}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
