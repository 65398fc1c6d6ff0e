import { playbackAuth } from '@platform/proto';
import { z } from 'zod';
import { unixSecondsSchema, unixSecondsString } from './wire';

/** Spec 2.4: a key as listed, read, and sent in `system.signing_key.*`; the private half never appears here. */
export const signingKeySchema = z.object({ id: z.string(), created_at: unixSecondsSchema });

/** The create reply: the only time `private_key` (base64 PEM) is shown. */
export const createdSigningKeySchema = signingKeySchema.extend({ private_key: z.string() });

export type SigningKeyBody = z.infer<typeof signingKeySchema>;
export type CreatedSigningKeyBody = z.infer<typeof createdSigningKeySchema>;

/** Never the private key, even when the message carries one. */
export function toSigningKey(key: playbackAuth.SigningKey): SigningKeyBody {
  return { id: key.id, created_at: unixSecondsString(key.created_at) };
}

export function toCreatedSigningKey(key: playbackAuth.SigningKey): CreatedSigningKeyBody {
  if (!key.private_key) throw new Error(`CreateSigningKey answered without a private key for ${key.id}`);
  return { ...toSigningKey(key), private_key: key.private_key };
}
