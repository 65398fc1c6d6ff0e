import { GrpcStatus } from '@platform/errors';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

const broadcast = (extra: Record<string, unknown> = {}) => ({
  id: 'b1',
  live_stream_id: 'ls1',
  status: 'idle',
  layout: 'gallery',
  resolution: '1920x1080',
  ...extra,
});

const space = (extra: Record<string, unknown> = {}) => ({
  id: 's1',
  status: 'idle',
  created_at: 1700000000,
  type: 'server',
  broadcasts: [broadcast()],
  ...extra,
});

describe('space routes (spec 2.10, 4.10)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('creates: 201 with the space, its string created_at and broadcasts; only the fields given go to the service', async () => {
    gw.spaces.createSpace.mockReturnValue(reply(space({ passthrough: 'p', broadcasts: [broadcast({ layout: 'crop', passthrough: 'bp' })] })));
    const res = await gw.request('POST', '/video/v1/spaces', {
      body: { passthrough: 'p', broadcasts: [{ live_stream_id: 'ls1', layout: 'crop', passthrough: 'bp' }] },
    });
    expect(gw.spaces.createSpace).toHaveBeenCalledWith({
      type: undefined,
      passthrough: 'p',
      broadcasts: [{ live_stream_id: 'ls1', passthrough: 'bp', layout: 'crop', background: undefined, resolution: undefined }],
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: {
        data: {
          id: 's1',
          created_at: '1700000000',
          type: 'server',
          status: 'idle',
          passthrough: 'p',
          broadcasts: [{ id: 'b1', live_stream_id: 'ls1', status: 'idle', layout: 'crop', passthrough: 'bp', resolution: '1920x1080' }],
        },
      },
    });
  });

  it('shows active_session_id while active', async () => {
    gw.spaces.getSpace.mockReturnValue(reply(space({ status: 'active', active_session_id: 'sess1', broadcasts: [] })));
    const res = await gw.request('GET', '/video/v1/spaces/s1');
    expect(res.body.data).toEqual({ id: 's1', created_at: '1700000000', type: 'server', status: 'active', broadcasts: [], active_session_id: 'sess1' });
  });

  it.each([
    [{ type: 'peer' }, 'type:'],
    [{ passthrough: 'x'.repeat(256) }, 'passthrough:'],
    [{ broadcasts: [{}] }, 'broadcasts[0].live_stream_id:'],
    [{ broadcasts: [{ live_stream_id: 'ls1', layout: 'grid' }] }, 'broadcasts[0].layout:'],
    [{ broadcasts: [{ live_stream_id: 'ls1', resolution: '640x480' }] }, 'broadcasts[0].resolution:'],
    [{ broadcasts: [{ live_stream_id: 'ls1', background: 'ftp://example.com/bg.png' }] }, 'broadcasts[0].background:'],
    [{ colour: 'red' }, 'colour: is not a known field'],
  ])('refuses %j with 400 naming the field, calling no service', async (body, message) => {
    const res = await gw.request('POST', '/video/v1/spaces', { body });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_parameters');
    expect((res.body.error.messages as string[]).some((m) => m.startsWith(message))).toBe(true);
    expect(gw.spaces.createSpace).not.toHaveBeenCalled();
  });

  it('lists 25 per page by default', async () => {
    gw.spaces.listSpaces.mockReturnValue(reply({ items: [space()] }));
    const res = await gw.request('GET', '/video/v1/spaces');
    expect(gw.spaces.listSpaces).toHaveBeenCalledWith({ limit: 25, page: 1 });
    expect(res.body.data).toHaveLength(1);
  });

  it('adds a broadcast (201) and gets it', async () => {
    gw.spaces.createBroadcast.mockReturnValue(reply(broadcast({ layout: 'active-speaker', background: 'https://example.com/bg.png' })));
    const created = await gw.request('POST', '/video/v1/spaces/s1/broadcasts', {
      body: { live_stream_id: 'ls1', layout: 'active-speaker', background: 'https://example.com/bg.png' },
    });
    expect(gw.spaces.createBroadcast).toHaveBeenCalledWith({
      space_id: 's1',
      broadcast: { live_stream_id: 'ls1', passthrough: undefined, layout: 'active-speaker', background: 'https://example.com/bg.png', resolution: undefined },
    });
    expect({ status: created.status, data: created.body.data }).toEqual({
      status: 201,
      data: { id: 'b1', live_stream_id: 'ls1', status: 'idle', layout: 'active-speaker', background: 'https://example.com/bg.png', resolution: '1920x1080' },
    });
    gw.spaces.getBroadcast.mockReturnValue(reply(broadcast()));
    expect((await gw.request('GET', '/video/v1/spaces/s1/broadcasts/b1')).body.data.id).toBe('b1');
    expect(gw.spaces.getBroadcast).toHaveBeenCalledWith({ space_id: 's1', broadcast_id: 'b1' });
  });

  it.each(['start', 'stop'] as const)('POST %s answers 200 {data: {}}', async (action) => {
    const method = `${action}Broadcast` as const;
    gw.spaces[method].mockReturnValue(reply({}));
    const res = await gw.request('POST', `/video/v1/spaces/s1/broadcasts/b1/${action}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { data: {} } });
    expect(gw.spaces[method]).toHaveBeenCalledWith({ space_id: 's1', broadcast_id: 'b1' });
  });

  it('start on an idle space is a 409 with the service’s reason; deletes are 204', async () => {
    gw.spaces.startBroadcast.mockReturnValue(
      grpcError(GrpcStatus.FAILED_PRECONDITION, ['A broadcast can start only while its space is active; the space is idle']),
    );
    const refused = await gw.request('POST', '/video/v1/spaces/s1/broadcasts/b1/start');
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: { error: { type: 'conflict', messages: ['A broadcast can start only while its space is active; the space is idle'] } },
    });
    gw.spaces.deleteBroadcast.mockReturnValue(reply({}));
    gw.spaces.deleteSpace.mockReturnValue(reply({}));
    expect((await gw.request('DELETE', '/video/v1/spaces/s1/broadcasts/b1')).status).toBe(204);
    expect((await gw.request('DELETE', '/video/v1/spaces/s1')).status).toBe(204);
  });

  it('needs video:write to create and video:read to list', async () => {
    const reader = await gw.token(['video:read']);
    expect((await gw.request('POST', '/video/v1/spaces', { auth: reader, body: {} })).status).toBe(403);
    gw.spaces.listSpaces.mockReturnValue(reply({ items: [] }));
    expect((await gw.request('GET', '/video/v1/spaces', { auth: reader })).status).toBe(200);
    expect((await gw.request('GET', '/video/v1/spaces', { auth: null })).status).toBe(401);
  });
});
