/** Bounds on one POST's content (config.collector: COLLECTOR_MAX_*). */
export interface PayloadLimits {
  maxEventsPerPost: number;
  maxKeysPerEvent: number;
  maxValueChars: number;
}

export type BeaconValue = string | number | boolean | null;
export type MinifiedEvent = Record<string, BeaconValue>;

export type ParsedPayload = { ok: true; events: MinifiedEvent[]; truncatedValues: number } | { ok: false; reason: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * mux-embed's body `{metadata, events: [{…minified keys…}]}` read and bounded. Values become JSON scalars: nested
 * objects (hls.js's `request_response_headers`, `request_rendition_lists`) their JSON text; strings longer than the
 * limit are cut (as mux-embed itself crops oversized payloads) rather than refused, since a refused POST is resent
 * by the player as it was. The shape, the event count and the key count are refused when wrong.
 */
export function parseBeaconPayload(body: string, limits: PayloadLimits): ParsedPayload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.events)) return { ok: false, reason: 'body must be an object with an events array' };
  const raw = parsed.events as unknown[];
  if (raw.length === 0) return { ok: false, reason: 'events is empty' };
  if (raw.length > limits.maxEventsPerPost) return { ok: false, reason: `more than ${limits.maxEventsPerPost} events` };
  const events: MinifiedEvent[] = [];
  let truncatedValues = 0;
  for (const [i, event] of raw.entries()) {
    if (!isRecord(event)) return { ok: false, reason: `events[${i}] is not an object` };
    const keys = Object.keys(event);
    if (keys.length > limits.maxKeysPerEvent) return { ok: false, reason: `events[${i}] has more than ${limits.maxKeysPerEvent} keys` };
    const out: MinifiedEvent = {};
    for (const key of keys) {
      if (key.length > 100) return { ok: false, reason: `events[${i}] has a key longer than 100 characters` };
      // the one key whose assignment would set the object's prototype instead of a field
      if (key === '__proto__') continue;
      let value = event[key];
      if (value !== null && typeof value === 'object') value = JSON.stringify(value);
      if (typeof value === 'string' && value.length > limits.maxValueChars) {
        value = value.slice(0, limits.maxValueChars);
        truncatedValues++;
      }
      out[key] = value as BeaconValue;
    }
    events.push(out);
  }
  return { ok: true, events, truncatedValues };
}
