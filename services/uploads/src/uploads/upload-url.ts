import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The upload URL: `{UPLOAD_BASE_URL}/upload/{id}?signature={secret}`. The secret is 32 random
 * bytes kept with the upload, so the URL stays valid across restarts and on every replica without
 * a shared key, and is checked in constant time. Expiry, cancel and completion are the upload's
 * state, not the URL's: they end it at once.
 */
export function newSignature(): string {
  return randomBytes(32).toString('base64url');
}

export function uploadUrl(baseUrl: string, id: string, signature: string): string {
  return `${baseUrl}/upload/${encodeURIComponent(id)}?signature=${signature}`;
}

export function signatureMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
