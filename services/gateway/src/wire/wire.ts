import { z } from 'zod';

/**
 * Services carry timestamps as int64 Unix seconds (numbers); the API writes every `*_at`
 * as a string of them (spec 000 §1.6). All response mappers convert through here.
 */
export function unixSecondsString(seconds: number): string {
  return String(Math.trunc(seconds));
}

/** The response schema of an `*_at` field. */
export const unixSecondsSchema = z.string().regex(/^\d+$/).meta({ description: 'Unix seconds', example: '1700000000' });

/** `{ data: <object> }`, the envelope of every success body. */
export function dataOf<T extends z.ZodType>(schema: T) {
  return z.object({ data: schema });
}

/** `{ data: [<object>, …] }`. */
export function listOf<T extends z.ZodType>(schema: T) {
  return z.object({ data: z.array(schema) });
}

export const PASSTHROUGH_MAX = 255;
