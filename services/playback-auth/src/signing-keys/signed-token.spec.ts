import Mux from '@mux/mux-node';
import { fakeUnitOfWork } from '@platform/testing';
import { InMemorySigningKeys } from '../testing/in-memory-signing-keys';
import { SigningKeyRepository } from './signing-key.repository';
import { SigningKeysService } from './signing-keys.service';

const VIEWER_COUNT_AUDIENCES = ['video_id', 'asset_id', 'playback_id', 'live_stream_id'];

describe('SigningKeysService.verifyToken (viewer counts: any subject, one of several audiences)', () => {
  const service = new SigningKeysService(new InMemorySigningKeys() as unknown as SigningKeyRepository, fakeUnitOfWork().unitOfWork);
  const mux = new Mux({ tokenId: 'id', tokenSecret: 'secret' });
  let key: { id: string; private_key?: string };

  beforeAll(async () => {
    key = await service.create();
  });

  const sign = (id: string, type: 'video' | 'asset' | 'playback' | 'live_stream', expiration?: string) =>
    mux.jwt.signViewerCounts(id, { type, keyId: key.id, keySecret: key.private_key!, ...(expiration ? { expiration } : {}) });

  it('names the subject, the audience it matched and the key', async () => {
    expect(await service.verifyToken(await sign('asset-1', 'asset'), VIEWER_COUNT_AUDIENCES)).toEqual({
      ok: true,
      token: { kid: key.id, subject: 'asset-1', audience: 'asset_id', claims: expect.objectContaining({ sub: 'asset-1', aud: 'asset_id' }) },
    });
    expect(await service.verifyToken(await sign('ls-1', 'live_stream'), VIEWER_COUNT_AUDIENCES)).toMatchObject({
      ok: true,
      token: { audience: 'live_stream_id' },
    });
  });

  it('refuses another audience, a deleted key, an expired token, nothing to check against', async () => {
    expect(await service.verifyToken(await sign('a', 'asset'), ['live_stream_id'])).toEqual({
      ok: false,
      reason: 'Token audience (aud) must be "live_stream_id" for this request',
    });
    const playback = await mux.jwt.signPlaybackId('p', { keyId: key.id, keySecret: key.private_key! });
    expect(await service.verifyToken(playback, VIEWER_COUNT_AUDIENCES)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Token audience \(aud\) must be one of "video_id"/),
    });
    expect(await service.verifyToken('', VIEWER_COUNT_AUDIENCES)).toEqual({ ok: false, reason: 'Token is required' });
    expect(await service.verifyToken(await sign('a', 'asset'), [])).toMatchObject({ ok: false });
    const inAMinute = new Date(Date.now() + 60_000);
    expect(await service.verifyToken(await sign('a', 'asset', '10s'), VIEWER_COUNT_AUDIENCES, inAMinute)).toEqual({ ok: false, reason: 'Token is expired' });
    const token = await sign('a', 'asset');
    await service.delete(key.id);
    expect(await service.verifyToken(token, VIEWER_COUNT_AUDIENCES)).toEqual({ ok: false, reason: 'Token signing key is unknown or was deleted' });
  });
});
