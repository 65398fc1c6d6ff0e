import { playbackAuth } from '@platform/proto';
import { firstValueFrom, timeout } from 'rxjs';

/** What a signed-token check needs of playback-auth's SigningKeysService client. */
export type VerifySignedTokenClient = Pick<playbackAuth.SigningKeysServiceClient, 'verifySignedToken'>;

/** playback-auth's answer: the verified token's `sub` and `aud` (one of those asked for), or why it is refused. */
export type SignedTokenVerdict = { ok: true; subject: string; audience: string } | { ok: false; reason: string };

/** How long a service waits for playback-auth's answer before giving up on the check. */
export const VERIFY_SIGNED_TOKEN_TIMEOUT_MS = 3_000;

/**
 * Checks a JWT signed with one of the account's signing keys by asking their owner, playback-auth
 * (VerifySignedToken: the keys and the verification code live there), for one of `audiences`. A refusal
 * is an answer; no answer within the deadline (rxjs TimeoutError) or a failed call rejects, and what that
 * means (a refused join, an error) is the caller's.
 */
export class SignedTokenVerifier {
  constructor(
    private readonly signingKeys: VerifySignedTokenClient,
    private readonly timeoutMs = VERIFY_SIGNED_TOKEN_TIMEOUT_MS,
  ) {}

  async verify(token: string, audiences: string[]): Promise<SignedTokenVerdict> {
    const reply = await firstValueFrom(this.signingKeys.verifySignedToken({ token, audiences }).pipe(timeout(this.timeoutMs)));
    if (!reply.valid) return { ok: false, reason: reply.reason };
    return { ok: true, subject: reply.subject, audience: reply.audience };
  }
}
