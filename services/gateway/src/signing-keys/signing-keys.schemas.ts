import { z } from 'zod';
import { dataOf, listOf, unixSecondsSchema } from '../wire/wire';
import { pagingQuery } from '../validation/paging';

/** Spec 2.4: a key as listed or read; the private half never appears here. */
export const signingKeySchema = z.object({ id: z.string(), created_at: unixSecondsSchema });

/** The create reply: the only time `private_key` (base64 PEM) is shown. */
export const createdSigningKeySchema = signingKeySchema.extend({ private_key: z.string() });

export const signingKeyListQuery = pagingQuery();

export const signingKeyResponse = dataOf(signingKeySchema);
export const createdSigningKeyResponse = dataOf(createdSigningKeySchema);
export const signingKeyListResponse = listOf(signingKeySchema);

export type SigningKeyBody = z.infer<typeof signingKeySchema>;
export type CreatedSigningKeyBody = z.infer<typeof createdSigningKeySchema>;
