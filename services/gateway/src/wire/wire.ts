import { z } from 'zod';

/** `{ data: <object> }`, the envelope of every success body. */
export function dataOf<T extends z.ZodType>(schema: T) {
  return z.object({ data: schema });
}

/** `{ data: [<object>, …] }`. */
export function listOf<T extends z.ZodType>(schema: T) {
  return z.object({ data: z.array(schema) });
}
