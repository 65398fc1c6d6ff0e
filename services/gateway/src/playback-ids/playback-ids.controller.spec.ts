import { GrpcStatus } from '@platform/errors';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

describe('GET /video/v1/playback-ids/:PLAYBACK_ID (spec 2.5, 4.4)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('names the owning asset and the policy, not the owner’s status', async () => {
    gw.assets.lookupPlaybackId.mockReturnValue(reply({ id: 'p1', policy: 'signed', object: { type: 'asset', id: 'a1' }, status: 'ready' }));
    const res = await gw.request('GET', '/video/v1/playback-ids/p1');
    expect(gw.assets.lookupPlaybackId).toHaveBeenCalledWith({ id: 'p1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: 'p1', policy: 'signed', object: { type: 'asset', id: 'a1' } } });
  });

  it('answers 404 for an unknown or deleted playback id', async () => {
    gw.assets.lookupPlaybackId.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Playback ID not found']));
    gw.liveStreams.lookupPlaybackId.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Playback ID not found']));
    const res = await gw.request('GET', '/video/v1/playback-ids/gone');
    expect(gw.liveStreams.lookupPlaybackId).toHaveBeenCalledWith({ id: 'gone' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { type: 'not_found', messages: ['Playback ID not found'] } });
    expect(res.headers.get('x-should-retry')).toBe('false');
  });

  it('needs video:read', async () => {
    const data = await gw.token(['data:read']);
    expect((await gw.request('GET', '/video/v1/playback-ids/p1', { auth: data })).status).toBe(403);
    expect(gw.assets.lookupPlaybackId).not.toHaveBeenCalled();
  });
});
