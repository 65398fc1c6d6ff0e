import { createPublicKey, KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, JWTPayload, jwtVerify } from 'jose';

/** Mux's `aud` for video playback (`t` thumbnail, `g` gif, `s` storyboard, `d` DRM licence). */
export const VIDEO_AUDIENCE = 'v';

/** What each audience a token may be for is called in a refusal. */
const AUDIENCE_USES: Record<string, string> = { v: 'video playback', t: 'thumbnails', g: 'animated images', s: 'storyboards' };

/** What a valid token grants beyond the playback id itself. */
export interface TokenGrant {
  kid: string;
  playbackRestrictionId?: string;
  /** Every claim of the token (image parameters may ride in it). */
  claims: Record<string, unknown>;
}

export type TokenCheck = { ok: true; grant: TokenGrant } | { ok: false; reason: string };

/** The SPKI PEM of an active signing key, or undefined when it is unknown or deleted. */
export type PublicKeyLookup = (kid: string) => Promise<string | undefined>;

/**
 * Verifies a signed-playback JWT the way Mux does: RS256 only, signed by the signing key
 * named by `kid` (in the payload since SDK 8, in the header before), `sub` = the playback
 * id, `aud` = `audience` (`v` for video, `t` thumbnails, `g` animated images, `s`
 * storyboards), `exp` required and in the future. Each refusal has its own short reason.
 * The signature is checked before any claim, so a forged token learns nothing.
 */
export async function verifyPlaybackToken(
  token: string | undefined,
  playbackId: string,
  publicKeyOf: PublicKeyLookup,
  now = new Date(),
  audience = VIDEO_AUDIENCE,
): Promise<TokenCheck> {
  if (token === undefined || token === '') return deny('Token is required for a signed playback ID');
  let header: ReturnType<typeof decodeProtectedHeader>;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    return deny('Token is malformed: not a JWT');
  }
  if (header.alg !== 'RS256') return deny(`Token algorithm must be RS256, got ${JSON.stringify(header.alg ?? null)}`);

  const kid = keyIdOf(header.kid, payload.kid);
  if (!kid.ok) return kid;
  const pem = await publicKeyOf(kid.kid);
  if (pem === undefined) return deny('Token signing key is unknown or was deleted');

  const restriction = payload.playback_restriction_id;
  if (restriction !== undefined && typeof restriction !== 'string') return deny('Token is malformed: playback_restriction_id must be a string');

  try {
    await jwtVerify(token, publicKey(pem), {
      algorithms: ['RS256'],
      audience,
      subject: playbackId,
      requiredClaims: ['exp'],
      currentDate: now,
    });
  } catch (err) {
    return deny(reasonOf(err, audience));
  }
  return { ok: true, grant: { kid: kid.kid, ...(restriction !== undefined ? { playbackRestrictionId: restriction } : {}), claims: payload } };
}

function keyIdOf(inHeader: unknown, inPayload: unknown): { ok: true; kid: string } | { ok: false; reason: string } {
  for (const kid of [inHeader, inPayload]) {
    if (kid !== undefined && (typeof kid !== 'string' || kid === '')) return deny('Token is malformed: kid must be a non-empty string');
  }
  if (inHeader !== undefined && inPayload !== undefined && inHeader !== inPayload) return deny('Token names two different signing keys (kid)');
  const kid = (inPayload ?? inHeader) as string | undefined;
  return kid === undefined ? deny('Token names no signing key (kid)') : { ok: true, kid };
}

// one imported KeyObject per PEM: verifying is per request, the keys rarely change
const keys = new Map<string, KeyObject>();

function publicKey(pem: string): KeyObject {
  let key = keys.get(pem);
  if (!key) {
    if (keys.size >= 1000) keys.clear();
    key = createPublicKey(pem);
    keys.set(pem, key);
  }
  return key;
}

const CLAIM_NAMES: Record<string, string> = { sub: 'playback ID (sub)', aud: 'audience (aud)', exp: 'expiration (exp)' };

function reasonOf(err: unknown, audience: string): string {
  if (err instanceof errors.JWTExpired) return 'Token is expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.reason === 'missing') return `Token has no ${CLAIM_NAMES[err.claim] ?? err.claim}`;
    if (err.reason === 'invalid') return `Token is malformed: ${err.claim} must be a number`;
    if (err.claim === 'sub') return 'Token is for another playback ID';
    if (err.claim === 'aud') return `Token audience (aud) must be "${audience}" for ${AUDIENCE_USES[audience] ?? 'this request'}`;
    if (err.claim === 'nbf') return 'Token is not valid yet (nbf)';
    return `Token claim ${err.claim} is invalid`;
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'Token signature is invalid';
  if (err instanceof errors.JOSEAlgNotAllowed) return 'Token algorithm must be RS256';
  return 'Token is malformed';
}

function deny(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
