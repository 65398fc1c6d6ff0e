import { createPublicKey, KeyObject } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, JWTPayload, jwtVerify } from 'jose';

/** The SPKI PEM of an active signing key, or undefined when it is unknown or deleted. */
export type PublicKeyLookup = (kid: string) => Promise<string | undefined>;

/** What a token must claim. */
export interface TokenExpectation {
  /** `aud` must be this, or one of these. */
  audience: string | readonly string[];
  /** `sub` must be this; absent: any subject, which the caller reads from the result. */
  subject?: string;
  /** How refusals name the subject ("playback ID"). */
  subjectName?: string;
  /** How refusals name the single audience's use ("video playback"). */
  audienceUse?: string;
}

export interface VerifiedToken {
  kid: string;
  subject: string;
  audience: string;
  /** Every claim of the token. */
  claims: JWTPayload;
}

export type SignedTokenCheck = { ok: true; token: VerifiedToken } | { ok: false; reason: string };

/**
 * Verifies a JWT signed with one of the signing keys the way Mux does: RS256 only, signed by the
 * key named by `kid` (in the payload since SDK 8, in the header before), `aud` and `sub` as
 * expected, `exp` required and in the future. Each refusal has its own short reason. The signature
 * is checked before any claim, so a forged token learns nothing.
 */
export async function verifySignedToken(
  token: string | undefined,
  publicKeyOf: PublicKeyLookup,
  expect: TokenExpectation,
  now = new Date(),
): Promise<SignedTokenCheck> {
  if (token === undefined || token === '') return deny('Token is required');
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

  const audiences = typeof expect.audience === 'string' ? [expect.audience] : [...expect.audience];
  try {
    await jwtVerify(token, publicKey(pem), {
      algorithms: ['RS256'],
      audience: audiences,
      ...(expect.subject !== undefined ? { subject: expect.subject } : {}),
      requiredClaims: ['exp', 'sub'],
      currentDate: now,
    });
  } catch (err) {
    return deny(reasonOf(err, expect, audiences));
  }
  const audience = [payload.aud ?? []].flat().find((aud) => audiences.includes(aud)) as string;
  return { ok: true, token: { kid: kid.kid, subject: payload.sub as string, audience, claims: payload } };
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

function reasonOf(err: unknown, expect: TokenExpectation, audiences: string[]): string {
  const subjectName = expect.subjectName ?? 'subject';
  const claimNames: Record<string, string> = { sub: `${subjectName} (sub)`, aud: 'audience (aud)', exp: 'expiration (exp)' };
  if (err instanceof errors.JWTExpired) return 'Token is expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.reason === 'missing') return `Token has no ${claimNames[err.claim] ?? err.claim}`;
    if (err.reason === 'invalid') return `Token is malformed: ${err.claim} must be a number`;
    if (err.claim === 'sub') return `Token is for another ${subjectName}`;
    if (err.claim === 'aud') return audienceReason(audiences, expect.audienceUse);
    if (err.claim === 'nbf') return 'Token is not valid yet (nbf)';
    return `Token claim ${err.claim} is invalid`;
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'Token signature is invalid';
  if (err instanceof errors.JOSEAlgNotAllowed) return 'Token algorithm must be RS256';
  return 'Token is malformed';
}

function audienceReason(audiences: string[], use: string | undefined): string {
  if (audiences.length > 1) return `Token audience (aud) must be one of ${audiences.map((a) => `"${a}"`).join(', ')}`;
  return `Token audience (aud) must be "${audiences[0]}" for ${use ?? 'this request'}`;
}

function deny(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
