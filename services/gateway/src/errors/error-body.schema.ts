import { z } from 'zod';
import { ERROR_STATUS } from './api-error';

/** The one error body (docs/decisions.md "Wire"). */
export const errorBodySchema = z.object({
  error: z.object({
    type: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
    messages: z.array(z.string()),
  }),
});
