import { PublicKeyLookup, verifySignedToken } from '../signing-keys/signed-token';

export type { PublicKeyLookup } from '../signing-keys/signed-token';

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

/**
 * Verifies a signed-playback JWT (`verifySignedToken`): `sub` = the playback id, `aud` =
 * `audience` (`v` for video, `t` thumbnails, `g` animated images, `s` storyboards), and an
 * optional `playback_restriction_id` that must be a string.
 */
export async function verifyPlaybackToken(
  token: string | undefined,
  playbackId: string,
  publicKeyOf: PublicKeyLookup,
  now = new Date(),
  audience = VIDEO_AUDIENCE,
): Promise<TokenCheck> {
  if (token === undefined || token === '') return { ok: false, reason: 'Token is required for a signed playback ID' };
  const check = await verifySignedToken(
    token,
    publicKeyOf,
    { audience, subject: playbackId, subjectName: 'playback ID', audienceUse: AUDIENCE_USES[audience] },
    now,
  );
  if (!check.ok) return check;
  const { kid, claims } = check.token;
  const restriction = claims.playback_restriction_id;
  if (restriction !== undefined && typeof restriction !== 'string')
    return { ok: false, reason: 'Token is malformed: playback_restriction_id must be a string' };
  return { ok: true, grant: { kid, ...(restriction !== undefined ? { playbackRestrictionId: restriction } : {}), claims } };
}
