import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a grant on a child URL (variant playlist, segment) vouches for: the master playlist
 * request that issued it passed every check for this playback id.
 */
export interface GrantPayload {
  /** Playback id. */
  p: string;
  /** Asset id: where the files are, so a child request needs no lookup. */
  a: string;
  /** Expiry, Unix seconds. */
  e: number;
  /** Playback restriction id from the token, checked again on every child request. */
  r?: string;
  /** 1 when the playback id is signed (children are then `private` to caches). */
  s?: 1;
}

export type GrantCheck = { ok: true; grant: GrantPayload } | { ok: false; reason: string };

/** `base64url(JSON payload).base64url(HMAC-SHA256(key, first part))`. */
export function signGrant(payload: GrantPayload, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(body, key)}`;
}

/** Checks signature, shape, playback id and expiry, in that order (nothing is read from a forged grant). */
export function verifyGrant(grant: string, playbackId: string, key: Buffer, nowSeconds: number): GrantCheck {
  const parts = grant.split('.');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return { ok: false, reason: 'Grant is malformed' };
  const [body, signature] = parts;
  const expected = Buffer.from(mac(body, key));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'Grant signature is invalid' };
  const payload = parsePayload(body);
  if (!payload) return { ok: false, reason: 'Grant is malformed' };
  if (payload.p !== playbackId) return { ok: false, reason: 'Grant is for another playback ID' };
  if (payload.e <= nowSeconds) return { ok: false, reason: 'Grant is expired; load the playlist again' };
  return { ok: true, grant: payload };
}

function mac(body: string, key: Buffer): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}

function parsePayload(body: string): GrantPayload | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { p, a, e, r, s } = value as Record<string, unknown>;
    if (typeof p !== 'string' || typeof a !== 'string' || typeof e !== 'number') return undefined;
    if (r !== undefined && typeof r !== 'string') return undefined;
    return { p, a, e, ...(r !== undefined ? { r } : {}), ...(s === 1 ? { s: 1 as const } : {}) };
  } catch {
    return undefined;
  }
}
