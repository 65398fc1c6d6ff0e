import { GrpcStatus } from '@platform/errors';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

const webInput = (extra: Record<string, unknown> = {}) => ({
  id: 'w1',
  status: 'idle',
  created_at: 1700000000,
  url: 'https://example.com/page',
  auto_launch: false,
  live_stream_id: 'ls1',
  resolution: '1920x1080',
  timeout: 3600,
  ...extra,
});

describe('web input routes (spec 2.9, 4.9)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('creates: 201 with the web input, its string created_at, and only the fields given passed on (the service applies the defaults)', async () => {
    gw.webInputs.createWebInput.mockReturnValue(reply(webInput({ passthrough: 'p1' })));
    const res = await gw.request('POST', '/video/v1/web-inputs', { body: { url: 'https://example.com/page', live_stream_id: 'ls1', passthrough: 'p1' } });
    expect(gw.webInputs.createWebInput).toHaveBeenCalledWith({
      url: 'https://example.com/page',
      live_stream_id: 'ls1',
      auto_launch: undefined,
      passthrough: 'p1',
      resolution: undefined,
      timeout: undefined,
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: {
        data: {
          id: 'w1',
          created_at: '1700000000',
          url: 'https://example.com/page',
          auto_launch: false,
          live_stream_id: 'ls1',
          status: 'idle',
          passthrough: 'p1',
          resolution: '1920x1080',
          timeout: 3600,
        },
      },
    });
  });

  it.each([
    [{ live_stream_id: 'ls1' }, 'url: is required'],
    [{ url: 'ftp://example.com/x', live_stream_id: 'ls1' }, 'url: must be an http or https URL'],
    [{ url: 'https://example.com', live_stream_id: 'ls1', resolution: '640x480' }, 'resolution:'],
    [{ url: 'https://example.com', live_stream_id: 'ls1', timeout: 0 }, 'timeout:'],
    [{ url: 'https://example.com', live_stream_id: 'ls1', timeout: 43_201 }, 'timeout:'],
    [{ url: 'https://example.com', live_stream_id: 'ls1', timeout: 1.5 }, 'timeout:'],
    [{ url: 'https://example.com' }, 'live_stream_id: is required'],
    [{ url: 'https://example.com', live_stream_id: 'ls1', passthrough: 'x'.repeat(256) }, 'passthrough:'],
    [{ url: 'https://example.com', live_stream_id: 'ls1', color: 'red' }, 'color: is not a known field'],
  ])('refuses %j with 400 naming the field, calling no service', async (body, message) => {
    const res = await gw.request('POST', '/video/v1/web-inputs', { body });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('invalid_parameters');
    expect((res.body.error.messages as string[]).some((m) => m.startsWith(message))).toBe(true);
    expect(gw.webInputs.createWebInput).not.toHaveBeenCalled();
  });

  it('lists 25 per page by default', async () => {
    gw.webInputs.listWebInputs.mockReturnValue(reply({ items: [webInput()] }));
    const res = await gw.request('GET', '/video/v1/web-inputs');
    expect(gw.webInputs.listWebInputs).toHaveBeenCalledWith({ limit: 25, page: 1 });
    expect(res.body.data).toHaveLength(1);
  });

  it.each(['launch', 'shutdown', 'reload'] as const)('PUT %s answers 200 {data: {}}', async (action) => {
    const method = `${action}WebInput` as const;
    gw.webInputs[method].mockReturnValue(reply({}));
    const res = await gw.request('PUT', `/video/v1/web-inputs/w1/${action}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { data: {} } });
    expect(gw.webInputs[method]).toHaveBeenCalledWith({ id: 'w1' });
  });

  it('changes the url with PUT …/url; a web input that is not idle is a 409 with the service’s reason', async () => {
    gw.webInputs.updateWebInputUrl.mockReturnValue(reply(webInput({ url: 'https://example.com/other' })));
    const ok = await gw.request('PUT', '/video/v1/web-inputs/w1/url', { body: { url: 'https://example.com/other' } });
    expect(gw.webInputs.updateWebInputUrl).toHaveBeenCalledWith({ id: 'w1', url: 'https://example.com/other' });
    expect(ok.body.data.url).toBe('https://example.com/other');
    gw.webInputs.updateWebInputUrl.mockReturnValue(
      grpcError(GrpcStatus.FAILED_PRECONDITION, ['The url can be changed only while the web input is idle; it is streaming']),
    );
    const refused = await gw.request('PUT', '/video/v1/web-inputs/w1/url', { body: { url: 'https://example.com/third' } });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: { error: { type: 'conflict', messages: ['The url can be changed only while the web input is idle; it is streaming'] } },
    });
  });

  it('deletes with 204; an unknown web input is 404', async () => {
    gw.webInputs.deleteWebInput.mockReturnValue(reply({}));
    expect((await gw.request('DELETE', '/video/v1/web-inputs/w1')).status).toBe(204);
    gw.webInputs.getWebInput.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Web input not found']));
    const missing = await gw.request('GET', '/video/v1/web-inputs/nope');
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 404, body: { error: { type: 'not_found', messages: ['Web input not found'] } } });
  });
});
