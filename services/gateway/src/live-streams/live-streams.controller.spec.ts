import { GrpcStatus } from '@platform/errors';
import { live } from '@platform/proto';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

/** A live stream as the live service answers it. */
const stream = (fields: Partial<live.LiveStream> = {}): live.LiveStream => ({
  id: 'ls1',
  created_at: 1700000000,
  stream_key: 'key-1',
  srt_passphrase: 'srt-1',
  recent_asset_ids: [],
  status: 'idle',
  playback_ids: [],
  audio_only: false,
  embedded_subtitles: [],
  generated_subtitles: [],
  reconnect_window: 60,
  use_slate_for_standard_latency: false,
  latency_mode: 'standard',
  simulcast_targets: [],
  test: false,
  max_continuous_duration: 43200,
  ...fields,
});

const IDLE_BODY = {
  id: 'ls1',
  created_at: '1700000000',
  stream_key: 'key-1',
  srt_passphrase: 'srt-1',
  status: 'idle',
  reconnect_window: 60,
  latency_mode: 'standard',
  reduced_latency: false,
  max_continuous_duration: 43200,
};

describe('live stream routes (spec 2.3, 4.3)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('creates from the SDK’s body and answers 201 with the stream as Mux shows it', async () => {
    gw.liveStreams.createLiveStream.mockReturnValue(
      reply(
        stream({
          playback_ids: [{ id: 'p1', policy: 'public' }],
          new_asset_settings: { input: [], static_renditions: [], playback_policy: ['public'] },
          test: true,
        }),
      ),
    );
    const res = await gw.request('POST', '/video/v1/live-streams', {
      body: {
        playback_policies: ['public'],
        new_asset_settings: { playback_policies: ['public'] },
        latency_mode: 'standard',
        test: true,
        simulcast_targets: [{ url: 'rtmp://live.example.com/app', stream_key: 'k' }],
        embedded_subtitles: [{ language_channel: 'cc2' }],
      },
    });
    expect(gw.liveStreams.createLiveStream).toHaveBeenCalledWith(
      expect.objectContaining({
        playback_policy: ['public'],
        new_asset_settings: expect.objectContaining({ input: [], static_renditions: [], playback_policy: ['public'] }),
        latency_mode: 'standard',
        test: true,
        simulcast_targets: [{ url: 'rtmp://live.example.com/app', stream_key: 'k', passthrough: undefined }],
        embedded_subtitles: [{ language_channel: 'cc2' }],
        generated_subtitles: [],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: { ...IDLE_BODY, playback_ids: [{ id: 'p1', policy: 'public' }], new_asset_settings: { playback_policies: ['public'] }, test: true },
    });
  });

  it.each<[string, unknown, string[]]>([
    ['a reconnect window over 1800', { reconnect_window: 1801 }, ['reconnect_window: must be at most 1800']],
    ['a max continuous duration under 60', { max_continuous_duration: 30 }, ['max_continuous_duration: must be at least 60']],
    ['an unknown latency mode', { latency_mode: 'ultra' }, ['latency_mode: must be one of "low", "reduced", "standard"']],
    [
      'an input url in new_asset_settings',
      { new_asset_settings: { input: [{ url: 'https://x/a.mp4', generated_subtitles: [] }] } },
      ['new_asset_settings.input[0].url: must be omitted for a live stream (the stream is the main input)'],
    ],
    ['an http simulcast target', { simulcast_targets: [{ url: 'http://x/app' }] }, ['simulcast_targets[0].url: must be an rtmp:// or rtmps:// URL']],
    ['two generated subtitles', { generated_subtitles: [{}, {}] }, ['generated_subtitles: must have at most 1 entries']],
  ])('refuses %s with 400, calling nothing', async (_name, body, messages) => {
    const res = await gw.request('POST', '/video/v1/live-streams', { body });
    expect(res.status).toBe(400);
    expect(res.body.error.messages).toEqual(messages);
    expect(gw.liveStreams.createLiveStream).not.toHaveBeenCalled();
  });

  it('lists with the stream_key and status filters', async () => {
    gw.liveStreams.listLiveStreams.mockReturnValue(reply({ items: [stream({ status: 'disabled' })] }));
    const res = await gw.request('GET', '/video/v1/live-streams?status=disabled&stream_key=key-1&limit=5');
    expect(gw.liveStreams.listLiveStreams).toHaveBeenCalledWith({ limit: 5, page: 1, status: 'disabled', stream_key: 'key-1' });
    expect(res.body.data[0].status).toBe('disabled');
    expect((await gw.request('GET', '/video/v1/live-streams?status=live')).status).toBe(400);
  });

  it('patches only the listed subset', async () => {
    gw.liveStreams.updateLiveStream.mockReturnValue(reply(stream({ latency_mode: 'low', reconnect_window: 0 })));
    const res = await gw.request('PATCH', '/video/v1/live-streams/ls1', { body: { latency_mode: 'low', reconnect_window: 0 } });
    expect(gw.liveStreams.updateLiveStream).toHaveBeenCalledWith({ id: 'ls1', latency_mode: 'low', reconnect_window: 0 });
    expect(res.body.data).toMatchObject({ latency_mode: 'low', reconnect_window: 0, reduced_latency: false });
    expect((await gw.request('PATCH', '/video/v1/live-streams/ls1', { body: { audio_only: true } })).body.error.messages).toEqual([
      'audio_only: is not a known field',
    ]);
  });

  it('answers complete, disable and enable with data {}', async () => {
    for (const [action, method] of [
      ['complete', 'completeLiveStream'],
      ['disable', 'disableLiveStream'],
      ['enable', 'enableLiveStream'],
    ] as const) {
      gw.liveStreams[method].mockReturnValue(reply({}));
      const res = await gw.request('PUT', `/video/v1/live-streams/ls1/${action}`);
      expect([res.status, res.body]).toEqual([200, { data: {} }]);
      expect(gw.liveStreams[method]).toHaveBeenCalledWith({ id: 'ls1' });
    }
  });

  it('answers 409 for a simulcast target on a stream that is not idle', async () => {
    gw.liveStreams.createSimulcastTarget.mockReturnValue(
      grpcError(GrpcStatus.FAILED_PRECONDITION, ['Simulcast targets can be added only while the live stream is idle; it is active']),
    );
    const res = await gw.request('POST', '/video/v1/live-streams/ls1/simulcast-targets', { body: { url: 'rtmp://x.example/app' } });
    expect(res.status).toBe(409);
    expect(gw.liveStreams.createSimulcastTarget).toHaveBeenCalledWith({
      live_stream_id: 'ls1',
      target: { url: 'rtmp://x.example/app', passthrough: undefined, stream_key: undefined },
    });
  });

  it('finds a live stream’s playback id in GET /video/v1/playback-ids/{id} when the assets service does not know it', async () => {
    gw.assets.lookupPlaybackId.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Playback ID not found']));
    gw.liveStreams.lookupPlaybackId.mockReturnValue(reply({ id: 'p9', policy: 'signed', object: { type: 'live_stream', id: 'ls1' }, status: 'idle' }));
    const res = await gw.request('GET', '/video/v1/playback-ids/p9');
    expect(res.body).toEqual({ data: { id: 'p9', policy: 'signed', object: { type: 'live_stream', id: 'ls1' } } });
  });
});
