import { randomBytes } from 'node:crypto';
import { SignedTokenVerifier, VerifySignedTokenClient } from '@platform/grpc';
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';

/** Mux's join tokens: RS256 with a signing key, `aud` "rt", `sub` the space id, optional `participant_id`. */
export const JOIN_AUDIENCE = 'rt';
/** Our own compositor's tokens: HS256 with this process's key; it joins hidden (subscribe-only, not counted). */
const COMPOSITOR_AUDIENCE = 'rt-compositor';
const COMPOSITOR_KID = 'compositor';
const MAX_PARTICIPANT_ID_LENGTH = 255;
/** The compositor's participant id is this and the broadcast's id: no participant may take it (it would replace the compositor). */
const COMPOSITOR_PREFIX = 'compositor-';

export interface Joiner {
  spaceId: string;
  participantId: string;
  hidden: boolean;
}

export class JoinRefusedError extends Error {}

/**
 * Who a join token lets in. A participant's token is checked by the signing keys' owner (playback-auth); the
 * compositor's is signed here, with a key that never leaves this process (the compositor joins the room of the
 * process that launched it). `spaceExists` refuses tokens for spaces that are not (or no longer) there.
 */
export class JoinTokens {
  private readonly compositorKey = randomBytes(32);
  private readonly signedTokens: SignedTokenVerifier;

  constructor(
    signingKeys: VerifySignedTokenClient,
    private readonly spaceExists: (id: string) => Promise<boolean>,
    /** Whether a compositor token's broadcast is active now (a stopped broadcast's token lets nobody listen in). */
    private readonly broadcastActive: (spaceId: string, broadcastId: string) => Promise<boolean>,
  ) {
    this.signedTokens = new SignedTokenVerifier(signingKeys);
  }

  async verify(token: string): Promise<Joiner> {
    if (!token) throw new JoinRefusedError('A join token (?token=) is required');
    const joiner = isCompositorToken(token) ? await this.verifyCompositor(token) : await this.verifyParticipant(token);
    if (!(await this.spaceExists(joiner.spaceId))) throw new JoinRefusedError(`No space ${joiner.spaceId}`);
    return joiner;
  }

  /** The broadcast a hidden participant composites, or undefined for anyone else. */
  static compositedBroadcast(participantId: string): string | undefined {
    return participantId.startsWith(COMPOSITOR_PREFIX) ? participantId.slice(COMPOSITOR_PREFIX.length) : undefined;
  }

  /** A token for the compositor of a broadcast of `spaceId`, valid for `seconds`. */
  signCompositor(spaceId: string, broadcastId: string, seconds: number): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: COMPOSITOR_KID })
      .setSubject(spaceId)
      .setAudience(COMPOSITOR_AUDIENCE)
      .setJti(broadcastId)
      .setExpirationTime(`${seconds}s`)
      .sign(this.compositorKey);
  }

  private async verifyCompositor(token: string): Promise<Joiner> {
    try {
      const { payload } = await jwtVerify(token, this.compositorKey, { audience: COMPOSITOR_AUDIENCE, algorithms: ['HS256'] });
      const spaceId = String(payload.sub);
      const broadcastId = String(payload.jti);
      if (!(await this.broadcastActive(spaceId, broadcastId))) throw new Error(`broadcast ${broadcastId} is not active`);
      return { spaceId, participantId: `${COMPOSITOR_PREFIX}${broadcastId}`, hidden: true };
    } catch (err) {
      throw new JoinRefusedError(`Compositor token refused: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async verifyParticipant(token: string): Promise<Joiner> {
    const verdict = await this.signedTokens.verify(token, [JOIN_AUDIENCE]);
    if (!verdict.ok) throw new JoinRefusedError(verdict.reason);
    // the signature is verified above; the claim is read from the same payload
    const claimed = decodeJwt(token).participant_id;
    if (claimed !== undefined && (typeof claimed !== 'string' || claimed.length === 0 || claimed.length > MAX_PARTICIPANT_ID_LENGTH)) {
      throw new JoinRefusedError(`participant_id must be a string of 1 to ${MAX_PARTICIPANT_ID_LENGTH} characters`);
    }
    if (claimed?.startsWith(COMPOSITOR_PREFIX)) throw new JoinRefusedError(`participant_id may not start with ${COMPOSITOR_PREFIX}`);
    return { spaceId: verdict.subject, participantId: claimed ?? `p-${randomBytes(8).toString('hex')}`, hidden: false };
  }
}

function isCompositorToken(token: string): boolean {
  try {
    const header = decodeProtectedHeader(token);
    return header.alg === 'HS256' && header.kid === COMPOSITOR_KID;
  } catch {
    throw new JoinRefusedError('The join token is not a JWT');
  }
}
