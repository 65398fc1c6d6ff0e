import type { IHeaders } from 'kafkajs';
import { DEAD_LETTER_SUFFIX, PlatformEvent } from './event-bus.port';

export type ParsedEnvelope = { ok: true; event: PlatformEvent } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Reads a message value as a PlatformEvent; anything else is poison for the dead-letter topic. */
export function parseEnvelope(value: Buffer | string | null | undefined): ParsedEnvelope {
  if (value === null || value === undefined || value.length === 0) return { ok: false, reason: 'empty message value' };
  let body: unknown;
  try {
    body = JSON.parse(value.toString());
  } catch {
    return { ok: false, reason: 'message value is not JSON' };
  }
  if (!isObject(body)) return { ok: false, reason: 'envelope is not a JSON object' };
  if (!isText(body.id)) return { ok: false, reason: 'envelope id must be a non-empty string' };
  if (!isText(body.type)) return { ok: false, reason: 'envelope type must be a non-empty string' };
  if (!isText(body.occurred_at) || Number.isNaN(Date.parse(body.occurred_at))) {
    return { ok: false, reason: 'envelope occurred_at must be an ISO 8601 timestamp' };
  }
  if (!isObject(body.object) || !isText(body.object.type) || !isText(body.object.id)) {
    return { ok: false, reason: 'envelope object must have a non-empty type and id' };
  }
  if (!isObject(body.data)) return { ok: false, reason: 'envelope data must be a JSON object' };
  return { ok: true, event: body as unknown as PlatformEvent };
}

export function eventHeaders(event: PlatformEvent): Record<string, string> {
  return { 'event-id': event.id, 'event-type': event.type };
}

export interface DeadLetterCause {
  reason: string;
  group: string;
  topic: string;
  partition: number;
  offset: string;
}

/** The original headers plus why, where from and for which consumer group the message died. */
export function deadLetterHeaders(original: IHeaders | undefined, cause: DeadLetterCause): IHeaders {
  return {
    ...original,
    'dlq-reason': cause.reason,
    'dlq-group': cause.group,
    'original-topic': cause.topic,
    'original-partition': String(cause.partition),
    'original-offset': cause.offset,
  };
}

export function deadLetterTopicOf(topic: string): string {
  return topic + DEAD_LETTER_SUFFIX;
}

export function isDeadLetterTopic(topic: string): boolean {
  return topic.endsWith(DEAD_LETTER_SUFFIX);
}

/** A header as text (kafkajs hands headers to consumers as Buffers). */
export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
