import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url: the secret half of an access token, shown once. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Hex SHA-256 of a secret. Secrets are high-entropy random strings, so a slow password
 * hash would buy nothing and slow every request.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
