import { playbackAuth } from '@platform/proto';
import { of, throwError } from 'rxjs';
import { ViewerCountsTokens } from './viewer-counts-token';

const reply = (extra: Partial<playbackAuth.VerifySignedTokenReply>) => of({ valid: true, reason: '', subject: '', audience: '', key_id: 'k', ...extra });

describe('ViewerCountsTokens', () => {
  it('asks playback-auth for the four viewer-counts audiences and maps aud to the counted column', async () => {
    const verifySignedToken = jest.fn(() => reply({ subject: 'ls-1', audience: 'live_stream_id' }));
    expect(await new ViewerCountsTokens({ verifySignedToken }).check('jwt')).toEqual({ ok: true, target: { column: 'live_stream_id', id: 'ls-1' } });
    expect(verifySignedToken).toHaveBeenCalledWith({ token: 'jwt', audiences: ['video_id', 'asset_id', 'playback_id', 'live_stream_id'] });
  });

  it('401 without a token (nothing asked), 403 with the refusal reason', async () => {
    const verifySignedToken = jest.fn(() => reply({ valid: false, reason: 'Token is expired' }));
    const tokens = new ViewerCountsTokens({ verifySignedToken });
    expect(await tokens.check(null)).toMatchObject({ ok: false, status: 401 });
    expect(await tokens.check('')).toMatchObject({ ok: false, status: 401 });
    expect(verifySignedToken).not.toHaveBeenCalled();
    expect(await tokens.check('jwt')).toEqual({ ok: false, status: 403, reason: 'Token is expired' });
  });

  it('an audience it did not ask for is refused; a failure to ask rejects', async () => {
    expect(await new ViewerCountsTokens({ verifySignedToken: () => reply({ subject: 'p', audience: 'v' }) }).check('jwt')).toMatchObject({
      ok: false,
      status: 403,
    });
    const down = new ViewerCountsTokens({ verifySignedToken: () => throwError(() => new Error('unavailable')) });
    await expect(down.check('jwt')).rejects.toThrow('unavailable');
  });
});
