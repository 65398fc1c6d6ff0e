import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';
import { encodeCursor } from './list-cursor';

const URL = 'https://media.example/video.mp4';

/** An asset as the assets service answers it. */
const asset = (fields: Partial<assets.Asset> = {}): assets.Asset => ({
  id: 'a1',
  created_at: 1700000000,
  status: 'preparing',
  max_resolution_tier: '1080p',
  encoding_tier: 'smart',
  video_quality: 'plus',
  playback_ids: [],
  tracks: [],
  master_access: 'none',
  mp4_support: 'none',
  normalize_audio: false,
  non_standard_input_reasons: {},
  test: false,
  ingest_type: 'on_demand_url',
  recording_times: [],
  ...fields,
});

/** The REST body of asset() with no fields changed. */
const PREPARING_BODY = {
  id: 'a1',
  created_at: '1700000000',
  status: 'preparing',
  progress: { state: 'ingesting', progress: 0 },
  max_resolution_tier: '1080p',
  encoding_tier: 'smart',
  video_quality: 'plus',
  master_access: 'none',
  mp4_support: 'none',
  ingest_type: 'on_demand_url',
};

describe('asset routes (spec 2.1, 2.2, 4.2)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('shows is_live only on assets of live streams: true while recording, false after', async () => {
    gw.assets.getAsset.mockReturnValue(reply(asset({ ingest_type: 'live_rtmp', live_stream_id: 'ls1' })));
    expect((await gw.request('GET', '/video/v1/assets/a1')).body.data).toMatchObject({ is_live: true, live_stream_id: 'ls1' });
    gw.assets.getAsset.mockReturnValue(reply(asset({ ingest_type: 'live_rtmp', live_stream_id: 'ls1', status: 'ready' })));
    expect((await gw.request('GET', '/video/v1/assets/a1')).body.data.is_live).toBe(false);
    gw.assets.getAsset.mockReturnValue(reply(asset()));
    expect((await gw.request('GET', '/video/v1/assets/a1')).body.data.is_live).toBeUndefined();
  });

  describe('POST /video/v1/assets', () => {
    it('takes a passthrough of 255 characters, however many UTF-16 units they need', async () => {
      gw.assets.createAsset.mockReturnValue(reply(asset({})));
      const res = await gw.request('POST', '/video/v1/assets', { body: { input: URL, passthrough: '😀'.repeat(255) } });
      expect(res.status).toBe(201);
      expect(gw.assets.createAsset.mock.calls[0][0]).toMatchObject({ passthrough: '😀'.repeat(255) });
    });

    it('creates from the SDK’s body (inputs, playback_policies) and answers 201 with the asset as Mux shows it', async () => {
      gw.assets.createAsset.mockReturnValue(reply(asset({ playback_ids: [{ id: 'p1', policy: 'public' }], passthrough: 'mine' })));
      const res = await gw.request('POST', '/video/v1/assets', {
        body: { inputs: [{ url: URL }], playback_policies: ['public'], passthrough: 'mine', video_quality: 'plus' },
      });
      expect(gw.assets.createAsset).toHaveBeenCalledWith({
        input: [{ url: URL, generated_subtitles: [] }],
        playback_policy: ['public'],
        static_renditions: [],
        passthrough: 'mine',
        video_quality: 'plus',
        max_resolution_tier: undefined,
        encoding_tier: undefined,
        mp4_support: undefined,
        master_access: undefined,
        normalize_audio: undefined,
        test: undefined,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ data: { ...PREPARING_BODY, playback_ids: [{ id: 'p1', policy: 'public' }], passthrough: 'mine' } });
    });

    it('takes the spec’s names with the shortcuts: input as a URL string, playback_policy as one string', async () => {
      gw.assets.createAsset.mockReturnValue(reply(asset({ test: true })));
      const res = await gw.request('POST', '/video/v1/assets', {
        body: {
          input: URL,
          playback_policy: 'signed',
          test: true,
          max_resolution_tier: '2160p',
          encoding_tier: 'baseline',
          mp4_support: 'none',
          master_access: 'none',
          normalize_audio: false,
        },
      });
      expect(gw.assets.createAsset).toHaveBeenCalledWith(
        expect.objectContaining({
          input: [{ url: URL, generated_subtitles: [] }],
          playback_policy: ['signed'],
          test: true,
          max_resolution_tier: '2160p',
          encoding_tier: 'baseline',
          mp4_support: 'none',
          master_access: 'none',
          normalize_audio: false,
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.data.test).toBe(true);
    });

    it('passes a watermark input and normalize_audio on to the assets service', async () => {
      gw.assets.createAsset.mockReturnValue(reply(asset({ normalize_audio: true })));
      const overlay = {
        vertical_align: 'middle',
        vertical_margin: '-10%',
        horizontal_align: 'center',
        horizontal_margin: '40px',
        width: '25%',
        opacity: '50%',
      };
      const res = await gw.request('POST', '/video/v1/assets', {
        body: {
          inputs: [{ url: URL }, { url: 'https://media.example/logo.png', overlay_settings: overlay }],
          normalize_audio: true,
          max_resolution_tier: '1440p',
        },
      });
      expect(res.status).toBe(201);
      expect(gw.assets.createAsset).toHaveBeenCalledWith(
        expect.objectContaining({
          input: [
            { url: URL, generated_subtitles: [] },
            { url: 'https://media.example/logo.png', overlay_settings: overlay, generated_subtitles: [] },
          ],
          normalize_audio: true,
          max_resolution_tier: '1440p',
        }),
      );
      expect(res.body.data.normalize_audio).toBe(true);
    });

    it('sends a clip of another asset on, with its times, and shows its source_asset_id', async () => {
      gw.assets.createAsset.mockReturnValue(reply(asset({ ingest_type: 'on_demand_clip', source_asset_id: 'src1' })));
      const res = await gw.request('POST', '/video/v1/assets', { body: { inputs: [{ url: 'mux://assets/src1', start_time: 1.5, end_time: 4 }] } });
      expect(gw.assets.createAsset).toHaveBeenCalledWith(
        expect.objectContaining({ input: [{ url: 'mux://assets/src1', start_time: 1.5, end_time: 4, generated_subtitles: [] }] }),
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ ingest_type: 'on_demand_clip', source_asset_id: 'src1' });
      const shortcut = await gw.request('POST', '/video/v1/assets', { body: { input: 'svc://assets/src1' } });
      expect(shortcut.status).toBe(201);
      expect(gw.assets.createAsset).toHaveBeenLastCalledWith(expect.objectContaining({ input: [{ url: 'svc://assets/src1', generated_subtitles: [] }] }));
    });

    it('sends no playback policy when none is given (the asset then has no playback ids) and omits playback_ids', async () => {
      gw.assets.createAsset.mockReturnValue(reply(asset()));
      const res = await gw.request('POST', '/video/v1/assets', { body: { input: [{ url: URL }] } });
      expect(gw.assets.createAsset).toHaveBeenCalledWith(expect.objectContaining({ playback_policy: [] }));
      expect(res.body).toEqual({ data: PREPARING_BODY });
    });

    it.each<[string, unknown, string[]]>([
      ['an empty body', {}, ['input: is required (the URL of a media file)']],
      ['an empty input list', { input: [] }, ['input: is required (the URL of a media file)']],
      ['an input without url', { inputs: [{ type: 'video' }] }, ['inputs[0].url: is required']],
      ['an ftp URL', { input: [{ url: 'ftp://media.example/a.mp4' }] }, ['input[0].url: must be an http or https URL']],
      ['a URL shortcut that is not a URL', { input: 'video.mp4' }, ['input: must be an http or https URL']],
      ['an object for input', { input: { url: URL } }, ['input: must be an array of inputs or a URL string']],
      ['an unknown policy', { input: URL, playback_policy: ['public', 'everyone'] }, ['playback_policy[1]: must be one of "public", "signed", "drm"']],
      ['an unknown single policy', { input: URL, playback_policies: 'everyone' }, ['playback_policies: must be one of "public", "signed", "drm"']],
      ['a long passthrough', { input: URL, passthrough: 'x'.repeat(256) }, ['passthrough: must be at most 255 characters']],
      // characters are code points, as the document's maxLength counts them: 255 emoji fit, 256 do not
      ['a passthrough of 256 emoji', { input: URL, passthrough: '😀'.repeat(256) }, ['passthrough: must be at most 255 characters']],
      ['an input URL with a space in its host', { input: 'https://exa mple.com/a.mp4' }, ['input: must be an http or https URL']],
      ['a 720p max tier', { input: URL, max_resolution_tier: '720p' }, ['max_resolution_tier: must be one of "1080p", "1440p", "2160p"']],
      ['an unknown video quality', { input: URL, video_quality: 'best' }, ['video_quality: must be one of "basic", "plus", "premium"']],
      ['a string for test', { input: URL, test: 'yes' }, ['test: must be a boolean, not a string']],
      ['an unknown field', { input: URL, colour: 'red' }, ['colour: is not a known field']],
      ['an unknown input field', { input: [{ url: URL, speed: 2 }] }, ['input[0].speed: is not a known field']],
      ['both input and inputs', { input: URL, inputs: [{ url: URL }] }, ['inputs: give input or inputs, not both']],
      [
        'both policy names',
        { input: URL, playback_policy: 'public', playback_policies: ['public'] },
        ['playback_policies: give playback_policy or playback_policies, not both'],
      ],
      [
        'a clip that is not the first input',
        { inputs: [{ url: URL }, { url: 'svc://assets/abc' }] },
        ['inputs[1].url: a clip (svc://assets/{asset_id}) must be the first input'],
      ],
      [
        'clip times on an input that is not a clip',
        { input: [{ url: URL, start_time: 1, end_time: 2 }] },
        [
          'input[0].start_time: only for clips (a first input whose url is svc://assets/{asset_id})',
          'input[0].end_time: only for clips (a first input whose url is svc://assets/{asset_id})',
        ],
      ],
      ['a clip ending before it starts', { input: [{ url: 'mux://assets/abc', start_time: 5, end_time: 5 }] }, ['input[0].end_time: must be after start_time']],
      ['a negative clip start', { input: [{ url: 'svc://assets/abc', start_time: -1 }] }, ['input[0].start_time: must be at least 0']],
    ])('refuses %s with 400 naming the field, calling nothing', async (_name, body, messages) => {
      const res = await gw.request('POST', '/video/v1/assets', { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages } });
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(gw.assets.createAsset).not.toHaveBeenCalled();
    });

    it.each<[string, unknown, string[]]>([
      [
        'copy_overlays: false',
        { input: 'mux://assets/abc', copy_overlays: false },
        ["copy_overlays: false is not implemented yet (a clip is cut from its source's renditions, which carry the source's watermarks)"],
      ],
      ['DRM', { input: URL, playback_policy: ['public', 'drm'] }, ['playback_policy: DRM playback is not implemented yet']],
      [
        'meta beside static renditions (which are built)',
        { input: URL, static_renditions: [{ resolution: 'highest' }], meta: { title: 't' } },
        ['meta: not implemented yet (asset metadata)'],
      ],
    ])('answers %s with 501 not_implemented naming the field, calling nothing', async (_name, body, messages) => {
      const res = await gw.request('POST', '/video/v1/assets', { body });
      expect(res.status).toBe(501);
      expect(res.body).toEqual({ error: { type: 'not_implemented', messages } });
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(gw.assets.createAsset).not.toHaveBeenCalled();
    });

    it('answers 400 before 501 when a body has both problems', async () => {
      const res = await gw.request('POST', '/video/v1/assets', { body: { input: URL, normalize_audio: true, passthrough: 'x'.repeat(256) } });
      expect(res.status).toBe(400);
    });

    describe('input URLs the platform would refuse to fetch (OUTBOUND_ALLOW, checked before anything is created)', () => {
      const metadata = 'inputs[0].url: 169.254.169.254 is a cloud metadata address, which this platform does not connect to';
      const messagesOf = (res: { body: unknown }) => (res.body as { error: { messages: string[] } }).error.messages;

      it('answers 400 naming the field for a cloud metadata or link-local address, whatever OUTBOUND_ALLOW says', async () => {
        const res = await gw.request('POST', '/video/v1/assets', { body: { inputs: [{ url: 'http://169.254.169.254/latest/meta-data/' }] } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: [metadata] } });
        expect(res.headers.get('x-should-retry')).toBe('false');
        const linkLocal = await gw.request('POST', '/video/v1/assets', { body: { input: 'http://[fe80::1]/a.mp4' } });
        expect(messagesOf(linkLocal)).toEqual(['input: fe80::1 is a link-local address, which this platform does not connect to']);
        expect(gw.assets.createAsset).not.toHaveBeenCalled();
      });

      it('checks the track and overlay inputs too', async () => {
        const res = await gw.request('POST', '/video/v1/assets', {
          body: { inputs: [{ url: URL }, { url: 'http://169.254.169.254/x.vtt', type: 'text', text_type: 'subtitles', language_code: 'en' }] },
        });
        expect(res.status).toBe(400);
        expect(messagesOf(res)).toEqual(['inputs[1].url: 169.254.169.254 is a cloud metadata address, which this platform does not connect to']);
        expect(gw.assets.createAsset).not.toHaveBeenCalled();
      });

      it('lets loopback through by default (embedded: a laptop serving its own files) and host names (checked after DNS, when fetched)', async () => {
        gw.assets.createAsset.mockReturnValue(reply(asset()));
        for (const url of ['http://127.0.0.1:8000/a.mp4', 'http://localhost:8000/a.mp4', 'https://media.internal.example/a.mp4']) {
          expect((await gw.request('POST', '/video/v1/assets', { body: { input: url } })).status).toBe(201);
        }
      });

      describe('with OUTBOUND_ALLOW=public', () => {
        let strict: TestGateway;
        beforeAll(async () => {
          strict = await TestGateway.start({ OUTBOUND_ALLOW: 'public' });
        });
        afterAll(() => strict.stop());

        it('refuses loopback and private addresses and localhost names, saying only what kind of address it is', async () => {
          const cases: Array<[unknown, string]> = [
            [{ input: 'http://127.0.0.1:50051/' }, 'input: 127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)'],
            [
              { inputs: [{ url: 'http://10.1.2.3/a.mp4' }] },
              'inputs[0].url: 10.1.2.3 is a private address, which this platform does not connect to (OUTBOUND_ALLOW)',
            ],
            [{ input: 'http://localhost:9000/a.mp4' }, 'input: 127.0.0.1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)'],
            [
              { input: 'http://[::ffff:127.0.0.1]/a.mp4' },
              'input: ::ffff:7f00:1 is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)',
            ],
          ];
          for (const [body, message] of cases) {
            const res = await strict.request('POST', '/video/v1/assets', { body });
            expect([res.status, res.body]).toEqual([400, { error: { type: 'invalid_parameters', messages: [message] } }]);
          }
          expect(strict.assets.createAsset).not.toHaveBeenCalled();
        });

        it('refuses them in the new_asset_settings of a direct upload and of a live stream too', async () => {
          const settings = { new_asset_settings: { inputs: [{}, { url: 'http://192.168.1.5/en.vtt', type: 'text', text_type: 'subtitles' }] } };
          const upload = await strict.request('POST', '/video/v1/uploads', { body: { cors_origin: '*', ...settings } });
          const message = 'new_asset_settings.inputs[1].url: 192.168.1.5 is a private address, which this platform does not connect to (OUTBOUND_ALLOW)';
          expect([upload.status, messagesOf(upload)]).toEqual([400, [message]]);
          const stream = await strict.request('POST', '/video/v1/live-streams', { body: { playback_policies: ['public'], ...settings } });
          expect([stream.status, messagesOf(stream)]).toEqual([400, [message]]);
          expect(strict.uploads.createUpload).not.toHaveBeenCalled();
          expect(strict.liveStreams.createLiveStream).not.toHaveBeenCalled();
        });
      });
    });

    it('passes the service’s own refusals through', async () => {
      gw.assets.createAsset.mockReturnValue(grpcError(GrpcStatus.INVALID_ARGUMENT, ['input[0].url: must be an http or https URL']));
      const res = await gw.request('POST', '/video/v1/assets', { body: { input: URL } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: ['input[0].url: must be an http or https URL'] } });
    });

    it('needs video:write', async () => {
      const reader = await gw.token(['video:read']);
      const res = await gw.request('POST', '/video/v1/assets', { auth: reader, body: { input: URL } });
      expect(res.status).toBe(403);
      expect(gw.assets.createAsset).not.toHaveBeenCalled();
    });
  });

  describe('GET /video/v1/assets/:ASSET_ID', () => {
    it('shows a ready asset with every field the probe filled, absent ones left out', async () => {
      const tracks = [
        { id: 'v1', type: 'video', max_width: 1280, max_height: 720, max_frame_rate: 30, duration: 6.006 },
        { id: 'au1', type: 'audio', max_channels: 2, primary: true, duration: 6.006 },
      ];
      gw.assets.getAsset.mockReturnValue(
        reply(
          asset({
            status: 'ready',
            updated_at: 1700000100,
            duration: 6.006,
            max_stored_resolution: 'HD',
            resolution_tier: '720p',
            max_stored_frame_rate: 30,
            aspect_ratio: '16:9',
            tracks,
            playback_ids: [{ id: 'p1', policy: 'signed' }],
            non_standard_input_reasons: { audio_codec: 'mp3' },
            errors: { type: 'ignored', messages: ['a ready asset shows no errors'] },
          }),
        ),
      );
      const res = await gw.request('GET', '/video/v1/assets/a1');
      expect(gw.assets.getAsset).toHaveBeenCalledWith({ id: 'a1' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          ...PREPARING_BODY,
          status: 'ready',
          progress: { state: 'completed', progress: 100 },
          updated_at: '1700000100',
          duration: 6.006,
          max_stored_resolution: 'HD',
          resolution_tier: '720p',
          max_stored_frame_rate: 30,
          aspect_ratio: '16:9',
          tracks,
          playback_ids: [{ id: 'p1', policy: 'signed' }],
          non_standard_input_reasons: { audio_codec: 'mp3' },
        },
      });
    });

    it('shows errors on an errored asset', async () => {
      gw.assets.getAsset.mockReturnValue(
        reply(asset({ status: 'errored', errors: { type: 'invalid_input', messages: ['The input could not be downloaded'] } })),
      );
      const res = await gw.request('GET', '/video/v1/assets/a1');
      expect(res.body.data).toMatchObject({
        status: 'errored',
        progress: { state: 'errored', progress: -1 },
        errors: { type: 'invalid_input', messages: ['The input could not be downloaded'] },
      });
    });

    it('answers 404 for an unknown asset', async () => {
      gw.assets.getAsset.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Asset not found']));
      const res = await gw.request('GET', '/video/v1/assets/nope');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { type: 'not_found', messages: ['Asset not found'] } });
      expect(res.headers.get('x-should-retry')).toBe('false');
    });
  });

  describe('GET /video/v1/assets', () => {
    it('lists with limit 25 and page 1 by default, without next_cursor when the page is not full', async () => {
      gw.assets.listAssets.mockReturnValue(reply({ items: [asset()] }));
      const res = await gw.request('GET', '/video/v1/assets');
      expect(gw.assets.listAssets).toHaveBeenCalledWith({ limit: 25, page: 1, live_stream_id: undefined, upload_id: undefined });
      expect(res.body).toEqual({ data: [PREPARING_BODY] });
    });

    it('passes the filters and gives a next_cursor for a full page, which the next request may send instead of page', async () => {
      gw.assets.listAssets.mockReturnValue(reply({ items: [asset({ id: 'x' }), asset({ id: 'y' })] }));
      const res = await gw.request('GET', '/video/v1/assets?limit=2&page=3&live_stream_id=ls1&upload_id=up1');
      expect(gw.assets.listAssets).toHaveBeenCalledWith({ limit: 2, page: 3, live_stream_id: 'ls1', upload_id: 'up1' });
      expect(res.body.data.map((a: { id: string }) => a.id)).toEqual(['x', 'y']);
      expect(res.body.next_cursor).toBe(encodeCursor(4));

      gw.assets.listAssets.mockReturnValue(reply({ items: [] }));
      const next = await gw.request('GET', `/video/v1/assets?limit=2&page=3&cursor=${res.body.next_cursor}`);
      expect(gw.assets.listAssets).toHaveBeenLastCalledWith({ limit: 2, page: 4, live_stream_id: undefined, upload_id: undefined });
      expect(next.body).toEqual({ data: [] });
    });

    it('clamps a limit above 100 to 100', async () => {
      gw.assets.listAssets.mockReturnValue(reply({ items: [] }));
      expect((await gw.request('GET', '/video/v1/assets?limit=101')).status).toBe(200);
      expect(gw.assets.listAssets).toHaveBeenCalledWith({ limit: 100, page: 1, live_stream_id: undefined, upload_id: undefined });
    });

    it.each([
      ['limit=0', ['limit: must be at least 1']],
      ['page=abc', ['page: must be an integer']],
      ['cursor=bm9wZQ', ['cursor: is not a cursor this API gave out']],
    ])('refuses ?%s with 400', async (query, messages) => {
      const res = await gw.request('GET', `/video/v1/assets?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages } });
      expect(gw.assets.listAssets).not.toHaveBeenCalled();
    });

    it('needs video:read: a data-only token gets 403', async () => {
      const data = await gw.token(['data:read']);
      expect((await gw.request('GET', '/video/v1/assets', { auth: data })).status).toBe(403);
      const reader = await gw.token(['video:read']);
      gw.assets.listAssets.mockReturnValue(reply({ items: [] }));
      expect((await gw.request('GET', '/video/v1/assets', { auth: reader })).status).toBe(200);
    });
  });

  describe('PATCH /video/v1/assets/:ASSET_ID', () => {
    it('updates passthrough; an empty string is sent as is (the service clears it)', async () => {
      gw.assets.updateAsset.mockReturnValue(reply(asset({ passthrough: 'new', updated_at: 1700000200 })));
      const res = await gw.request('PATCH', '/video/v1/assets/a1', { body: { passthrough: 'new' } });
      expect(gw.assets.updateAsset).toHaveBeenCalledWith({ id: 'a1', passthrough: 'new' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ passthrough: 'new', updated_at: '1700000200' });

      gw.assets.updateAsset.mockReturnValue(reply(asset({ updated_at: 1700000300 })));
      const cleared = await gw.request('PATCH', '/video/v1/assets/a1', { body: { passthrough: '' } });
      expect(gw.assets.updateAsset).toHaveBeenLastCalledWith({ id: 'a1', passthrough: '' });
      expect(cleared.body.data).not.toHaveProperty('passthrough');
    });

    it('sets thumbnail_time, alone or with passthrough, and shows it in the body', async () => {
      gw.assets.updateAsset.mockReturnValue(reply(asset({ thumbnail_time: 2.5, updated_at: 1700000200 })));
      const res = await gw.request('PATCH', '/video/v1/assets/a1', { body: { thumbnail_time: 2.5 } });
      expect(gw.assets.updateAsset).toHaveBeenCalledWith({ id: 'a1', passthrough: undefined, thumbnail_time: 2.5 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { ...PREPARING_BODY, thumbnail_time: 2.5, updated_at: '1700000200' } });

      gw.assets.updateAsset.mockReturnValue(reply(asset({ thumbnail_time: 0, passthrough: 'p' })));
      const both = await gw.request('PATCH', '/video/v1/assets/a1', { body: { passthrough: 'p', thumbnail_time: 0 } });
      expect(gw.assets.updateAsset).toHaveBeenLastCalledWith({ id: 'a1', passthrough: 'p', thumbnail_time: 0 });
      expect(both.body.data).toMatchObject({ passthrough: 'p', thumbnail_time: 0 });

      gw.assets.updateAsset.mockReturnValue(reply(asset({ thumbnail_time: 43200 })));
      expect((await gw.request('PATCH', '/video/v1/assets/a1', { body: { thumbnail_time: 43200 } })).status).toBe(200);
    });

    it('answers the assets service’s refusal of a thumbnail_time beyond the duration with 400 and its message', async () => {
      const message = "thumbnail_time: must be within the asset's duration (6.006 s)";
      gw.assets.updateAsset.mockReturnValue(grpcError(GrpcStatus.INVALID_ARGUMENT, [message]));
      const res = await gw.request('PATCH', '/video/v1/assets/a1', { body: { thumbnail_time: 7 } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: [message] } });
      expect(res.headers.get('x-should-retry')).toBe('false');
    });

    it.each<[string, unknown, number, string, string[]]>([
      ['no field', {}, 400, 'invalid_parameters', ['body: give at least one of passthrough, meta, thumbnail_time']],
      ['a long passthrough', { passthrough: 'x'.repeat(256) }, 400, 'invalid_parameters', ['passthrough: must be at most 255 characters']],
      ['another field of the spec', { passthrough: 'x', test: true }, 400, 'invalid_parameters', ['test: is not a known field']],
      ['a negative thumbnail_time', { thumbnail_time: -0.5 }, 400, 'invalid_parameters', ['thumbnail_time: must be at least 0']],
      ['a thumbnail_time past 12 hours', { passthrough: 'x', thumbnail_time: 43200.5 }, 400, 'invalid_parameters', ['thumbnail_time: must be at most 43200']],
      ['a thumbnail_time as a string', { thumbnail_time: '3' }, 400, 'invalid_parameters', ['thumbnail_time: must be a number, not a string']],
      ['a null thumbnail_time', { thumbnail_time: null }, 400, 'invalid_parameters', ['thumbnail_time: must be a number, not null']],
      ['Mux’s meta', { meta: { title: 'x' } }, 501, 'not_implemented', ['meta: asset metadata is not implemented yet']],
      [
        'Mux’s meta with a thumbnail_time',
        { meta: { title: 'x' }, thumbnail_time: 3 },
        501,
        'not_implemented',
        ['meta: asset metadata is not implemented yet'],
      ],
    ])('refuses %s', async (_name, body, status, type, messages) => {
      const res = await gw.request('PATCH', '/video/v1/assets/a1', { body });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error: { type, messages } });
      expect(res.headers.get('x-should-retry')).toBe('false');
      expect(gw.assets.updateAsset).not.toHaveBeenCalled();
    });

    it('refuses a thumbnail_time too large for a number (1e400) with 400', async () => {
      const res = await gw.request('PATCH', '/video/v1/assets/a1', { rawBody: '{"thumbnail_time": 1e400}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: ['thumbnail_time: must be a finite number'] } });
      expect(gw.assets.updateAsset).not.toHaveBeenCalled();
    });
  });

  describe('DELETE /video/v1/assets/:ASSET_ID/thumbnail-time', () => {
    it('unsets it: 204 without a body, as the other DELETEs', async () => {
      gw.assets.deleteThumbnailTime.mockReturnValue(reply({}));
      const res = await gw.request('DELETE', '/video/v1/assets/a1/thumbnail-time', { headers: { accept: '*/*' } });
      expect(gw.assets.deleteThumbnailTime).toHaveBeenCalledWith({ id: 'a1' });
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
    });

    it('is 404 for an unknown or deleted asset', async () => {
      gw.assets.deleteThumbnailTime.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Asset not found']));
      const res = await gw.request('DELETE', '/video/v1/assets/gone/thumbnail-time');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { type: 'not_found', messages: ['Asset not found'] } });
      expect(res.headers.get('x-should-retry')).toBe('false');
    });

    it('needs video:write: a read-only token gets 403', async () => {
      const reader = await gw.token(['video:read']);
      expect((await gw.request('DELETE', '/video/v1/assets/a1/thumbnail-time', { auth: reader })).status).toBe(403);
      expect(gw.assets.deleteThumbnailTime).not.toHaveBeenCalled();
    });
  });

  it('DELETE /video/v1/assets/:ASSET_ID answers 204 without a body', async () => {
    gw.assets.deleteAsset.mockReturnValue(reply({}));
    const res = await gw.request('DELETE', '/video/v1/assets/a1');
    expect(gw.assets.deleteAsset).toHaveBeenCalledWith({ id: 'a1' });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
  });

  it('GET …/input-info shows settings and file per input, absent fields left out', async () => {
    gw.assets.getInputInfo.mockReturnValue(
      reply({
        items: [
          {
            settings: { url: URL, generated_subtitles: [] },
            file: {
              container_format: 'mov,mp4,m4a,3gp,3g2,mj2',
              tracks: [
                { type: 'video', duration: 6.006, width: 1280, height: 720, frame_rate: 30, encoding: 'h264' },
                { type: 'audio', duration: 6.006, encoding: 'aac', sample_rate: 48000, channels: 2, sample_size: undefined },
              ],
            },
          },
        ],
      }),
    );
    const res = await gw.request('GET', '/video/v1/assets/a1/input-info');
    expect(gw.assets.getInputInfo).toHaveBeenCalledWith({ id: 'a1' });
    expect(res.body).toEqual({
      data: [
        {
          settings: { url: URL },
          file: {
            container_format: 'mov,mp4,m4a,3gp,3g2,mj2',
            tracks: [
              { type: 'video', duration: 6.006, width: 1280, height: 720, frame_rate: 30, encoding: 'h264' },
              { type: 'audio', duration: 6.006, encoding: 'aac', sample_rate: 48000, channels: 2 },
            ],
          },
        },
      ],
    });
  });

  describe('playback ids of an asset', () => {
    it('creates one (201), with policy public when none is given', async () => {
      gw.assets.createPlaybackId.mockReturnValue(reply({ id: 'p9', policy: 'signed' }));
      const res = await gw.request('POST', '/video/v1/assets/a1/playback-ids', { body: { policy: 'signed' } });
      expect(gw.assets.createPlaybackId).toHaveBeenCalledWith({ asset_id: 'a1', policy: 'signed' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ data: { id: 'p9', policy: 'signed' } });

      gw.assets.createPlaybackId.mockReturnValue(reply({ id: 'p10', policy: 'public' }));
      await gw.request('POST', '/video/v1/assets/a1/playback-ids', { body: {} });
      expect(gw.assets.createPlaybackId).toHaveBeenLastCalledWith({ asset_id: 'a1', policy: 'public' });
    });

    it.each<[unknown, number, string[]]>([
      [{ policy: 'everyone' }, 400, ['policy: must be one of "public", "signed", "drm"']],
      [{ policy: 'public', extra: 1 }, 400, ['extra: is not a known field']],
      [{ policy: 'drm' }, 501, ['policy: DRM playback is not implemented yet']],
    ])('refuses %j', async (body, status, messages) => {
      const res = await gw.request('POST', '/video/v1/assets/a1/playback-ids', { body });
      expect(res.status).toBe(status);
      expect(res.body.error.messages).toEqual(messages);
      expect(gw.assets.createPlaybackId).not.toHaveBeenCalled();
    });

    it('reads one and deletes one (204)', async () => {
      gw.assets.getPlaybackId.mockReturnValue(reply({ id: 'p1', policy: 'public' }));
      const got = await gw.request('GET', '/video/v1/assets/a1/playback-ids/p1');
      expect(gw.assets.getPlaybackId).toHaveBeenCalledWith({ asset_id: 'a1', playback_id: 'p1' });
      expect(got.body).toEqual({ data: { id: 'p1', policy: 'public' } });

      gw.assets.deletePlaybackId.mockReturnValue(reply({}));
      const del = await gw.request('DELETE', '/video/v1/assets/a1/playback-ids/p1');
      expect(gw.assets.deletePlaybackId).toHaveBeenCalledWith({ asset_id: 'a1', playback_id: 'p1' });
      expect(del.status).toBe(204);

      gw.assets.deletePlaybackId.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Playback ID not found']));
      const again = await gw.request('DELETE', '/video/v1/assets/a1/playback-ids/p1');
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: { type: 'not_found', messages: ['Playback ID not found'] } });
    });
  });
});
