import { GrpcStatus } from '@platform/errors';
import { uploads } from '@platform/proto';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

const URL = 'http://localhost:8082/upload/u1?signature=abc';

/** An upload as the uploads service answers it. */
const upload = (fields: Partial<uploads.Upload> = {}): uploads.Upload => ({
  id: 'u1',
  status: 'waiting',
  timeout: 3600,
  url: URL,
  test: false,
  created_at: 1700000000,
  ...fields,
});

describe('upload routes (spec 2.6, 4.5)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('creates from the SDK’s body, sending the asset settings as asset creation does, and answers 201 as Mux shows it', async () => {
    gw.uploads.createUpload.mockReturnValue(
      reply(
        upload({
          cors_origin: '*',
          new_asset_settings: { input: [], static_renditions: [], playback_policy: ['public'], passthrough: 'p', video_quality: 'basic' },
        }),
      ),
    );
    const res = await gw.request('POST', '/video/v1/uploads', {
      body: { cors_origin: '*', new_asset_settings: { playback_policies: ['public'], passthrough: 'p', video_quality: 'basic' } },
    });
    expect(gw.uploads.createUpload).toHaveBeenCalledWith({
      timeout: 3600,
      cors_origin: '*',
      test: undefined,
      new_asset_settings: expect.objectContaining({ input: [], static_renditions: [], playback_policy: ['public'], passthrough: 'p', video_quality: 'basic' }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: 'u1',
        status: 'waiting',
        timeout: 3600,
        url: URL,
        cors_origin: '*',
        new_asset_settings: { playback_policies: ['public'], passthrough: 'p', video_quality: 'basic' },
      },
    });
  });

  it('shows asset_id only when asset_created, error only when errored, test only when true', async () => {
    gw.uploads.getUpload.mockReturnValue(reply(upload({ status: 'asset_created', asset_id: 'a1', test: true })));
    expect((await gw.request('GET', '/video/v1/uploads/u1')).body.data).toEqual({
      id: 'u1',
      status: 'asset_created',
      asset_id: 'a1',
      timeout: 3600,
      url: URL,
      test: true,
    });
    gw.uploads.getUpload.mockReturnValue(reply(upload({ status: 'errored', error: { type: 'invalid_input', message: 'not media' } })));
    expect((await gw.request('GET', '/video/v1/uploads/u1')).body.data).toEqual({
      id: 'u1',
      status: 'errored',
      error: { type: 'invalid_input', message: 'not media' },
      timeout: 3600,
      url: URL,
    });
  });

  it('lists with limit and page', async () => {
    gw.uploads.listUploads.mockReturnValue(reply({ items: [upload(), upload({ id: 'u2' })] }));
    const res = await gw.request('GET', '/video/v1/uploads?limit=2&page=3');
    expect(gw.uploads.listUploads).toHaveBeenCalledWith({ limit: 2, page: 3 });
    expect(res.body.data.map((u: { id: string }) => u.id)).toEqual(['u1', 'u2']);
  });

  it('cancels, and answers 409 (x-should-retry false) when the upload is not waiting', async () => {
    gw.uploads.cancelUpload.mockReturnValue(reply(upload({ status: 'cancelled' })));
    expect((await gw.request('PUT', '/video/v1/uploads/u1/cancel')).body.data.status).toBe('cancelled');
    gw.uploads.cancelUpload.mockReturnValue(grpcError(GrpcStatus.FAILED_PRECONDITION, ['Only a waiting upload can be cancelled; this one is asset_created']));
    const res = await gw.request('PUT', '/video/v1/uploads/u1/cancel');
    expect(res.status).toBe(409);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(res.body).toEqual({ error: { type: 'conflict', messages: ['Only a waiting upload can be cancelled; this one is asset_created'] } });
  });

  it.each<[string, unknown, string[]]>([
    ['a timeout under 60', { timeout: 59 }, ['timeout: must be at least 60']],
    ['a timeout over a week', { timeout: 604801 }, ['timeout: must be at most 604800']],
    ['a fractional timeout', { timeout: 60.5 }, ['timeout: must be an integer, not a non-integer number']],
    [
      'an input url (the file is the input)',
      { new_asset_settings: { input: [{ url: 'https://x/a.mp4', generated_subtitles: [] }] } },
      ['new_asset_settings.input[0].url: must be omitted for a direct upload (the uploaded file is the main input)'],
    ],
    [
      'an input URL shortcut',
      { new_asset_settings: { input: 'https://x/a.mp4' } },
      ['new_asset_settings.input: must be omitted for a direct upload (the uploaded file is the main input)'],
    ],
    [
      'a bad tier',
      { new_asset_settings: { max_resolution_tier: '720p' } },
      ['new_asset_settings.max_resolution_tier: must be one of "1080p", "1440p", "2160p"'],
    ],
    ['an unknown settings field', { new_asset_settings: { colour: 'red' } }, ['new_asset_settings.colour: is not a known field']],
    ['an unknown field', { colour: 'red' }, ['colour: is not a known field']],
  ])('refuses %s with 400, calling nothing', async (_name, body, messages) => {
    const res = await gw.request('POST', '/video/v1/uploads', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages } });
    expect(gw.uploads.createUpload).not.toHaveBeenCalled();
  });

  it('answers 501 for asset settings of features not built yet, calling nothing', async () => {
    const res = await gw.request('POST', '/video/v1/uploads', {
      body: { new_asset_settings: { meta: { title: 't' }, generate_shots: true } },
    });
    expect(res.status).toBe(501);
    expect(res.body.error.messages).toEqual([
      'new_asset_settings.meta: not implemented yet (asset metadata)',
      'new_asset_settings.generate_shots: not implemented yet (shot detection)',
    ]);
    expect(gw.uploads.createUpload).not.toHaveBeenCalled();
  });
});
