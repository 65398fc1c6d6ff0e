import { PlatformEvent } from './event-bus.port';

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
  return checkEnvelope(body);
}

/** The envelope of any event (registered or not): `{ id, type, occurred_at, object: { type, id }, data }`. */
export function checkEnvelope(body: unknown): ParsedEnvelope {
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

/** Why a message went to `<topic>.dlq`, the same on every adapter (Kafka carries it in headers). */
export const DEAD_LETTER_REASON = {
  /** Not an event envelope: the message cannot be read at all. */
  poison: (reason: string) => `poison message: ${reason}`,
  /** An envelope that fails its subscription's validation (the registry's schema of its type). */
  invalid: (reason: string) => `invalid event: ${reason}`,
  /** Every try of the handler threw. */
  failed: (attempts: number, error: string) => `handler failed ${attempts} times: ${error}`,
};

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
