import { playbackAuth } from '@platform/proto';
import { NEVER, of, throwError, TimeoutError } from 'rxjs';
import { SignedTokenVerifier, VERIFY_SIGNED_TOKEN_TIMEOUT_MS } from './signed-token-verifier';

const reply = (extra: Partial<playbackAuth.VerifySignedTokenReply>) => of({ valid: false, reason: '', subject: '', audience: '', key_id: '', ...extra });

describe('SignedTokenVerifier', () => {
  it('asks playback-auth for the audiences given and answers with the verified sub and aud', async () => {
    const verifySignedToken = jest.fn(() => reply({ valid: true, subject: 'space1', audience: 'rt', key_id: 'k1' }));
    await expect(new SignedTokenVerifier({ verifySignedToken }).verify('jwt', ['rt'])).resolves.toEqual({ ok: true, subject: 'space1', audience: 'rt' });
    expect(verifySignedToken).toHaveBeenCalledWith({ token: 'jwt', audiences: ['rt'] });
  });

  it('answers a refusal with playback-auth’s reason', async () => {
    const verifier = new SignedTokenVerifier({ verifySignedToken: () => reply({ reason: 'Token is expired', subject: 'ignored' }) });
    await expect(verifier.verify('jwt', ['video_id'])).resolves.toEqual({ ok: false, reason: 'Token is expired' });
  });

  it('rejects when the call fails, or is not answered within the deadline (3 s unless given)', async () => {
    expect(VERIFY_SIGNED_TOKEN_TIMEOUT_MS).toBe(3_000);
    const down = new SignedTokenVerifier({ verifySignedToken: () => throwError(() => new Error('unavailable')) });
    await expect(down.verify('jwt', ['rt'])).rejects.toThrow('unavailable');
    const silent = new SignedTokenVerifier({ verifySignedToken: () => NEVER }, 20);
    await expect(silent.verify('jwt', ['rt'])).rejects.toBeInstanceOf(TimeoutError);
  });
});
