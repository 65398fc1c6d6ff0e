import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random base62 identifier, the shape of Mux ids (asset, playback, signing key…).
 * 32 characters carry about 190 bits: unguessable, so a playback id can be public.
 */
export function newId(length = 32): string {
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely
      if (byte < 248 && out.length < length) out.push(ALPHABET[byte % 62]);
    }
  }
  return out.join('');
}

/** Unix seconds as the string the API carries in every `*_at` field. */
export function unixSeconds(date: Date): string {
  return String(Math.floor(date.getTime() / 1000));
}
