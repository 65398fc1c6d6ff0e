import { z } from 'zod';

/**
 * Services carry timestamps as int64 Unix seconds (numbers); the API writes every `*_at` as a
 * string of them (spec 000 §1.6). Every body mapper converts through here.
 */
export function unixSecondsString(seconds: number): string {
  return String(Math.trunc(seconds));
}

/** The schema of an `*_at` field. */
export const unixSecondsSchema = z.string().regex(/^\d+$/).meta({ description: 'Unix seconds', example: '1700000000' });

/** The object without its undefined and null fields (absent fields are left out of every body). */
export function withoutAbsent<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}
