import { BeaconBatch } from '@platform/events';

/** One beacon event after key expansion: mux-embed's full key names, JSON scalars. */
export type BeaconValue = string | number | boolean | null;
export type BeaconEvent = Readonly<Record<string, BeaconValue>>;
export type { BeaconBatch };

/** A finite number, or a numeric string read as one (players and translators send both). */
export function numberOf(value: BeaconValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** A non-empty string; numbers and booleans as their text (a numeric error code is still a code). */
export function stringOf(value: BeaconValue | undefined): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

export function booleanOf(value: BeaconValue | undefined): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return null;
}

/** A non-negative integer, e.g. a millisecond count or a counter. */
export function countOf(value: BeaconValue | undefined): number | null {
  const n = numberOf(value);
  return n === null ? null : Math.max(0, Math.round(n));
}
