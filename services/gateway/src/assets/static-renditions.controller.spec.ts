import { GrpcStatus } from '@platform/errors';
import { assets, live } from '@platform/proto';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

const asset = (fields: Partial<assets.Asset> = {}): assets.Asset => ({
  id: 'a1',
  created_at: 1700000000,
  status: 'ready',
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

describe('static renditions and master access routes (spec 4.2; SDK 15 Static Renditions API)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('PUT mp4-support passes the option on and answers the asset with static_renditions', async () => {
    gw.staticRenditions.updateMp4Support.mockReturnValue(
      reply(asset({ mp4_support: 'standard', updated_at: 1700000100, static_renditions: { status: 'preparing', files: [] } })),
    );
    const res = await gw.request('PUT', '/video/v1/assets/a1/mp4-support', { body: { mp4_support: 'standard' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: 'a1', mp4_support: 'standard', updated_at: '1700000100', static_renditions: { status: 'preparing', files: [] } });
    expect(gw.staticRenditions.updateMp4Support).toHaveBeenCalledWith({ asset_id: 'a1', mp4_support: 'standard' });
  });

  it('PUT master-access answers the asset with master', async () => {
    gw.staticRenditions.updateMasterAccess.mockReturnValue(reply(asset({ master_access: 'temporary', master: { status: 'preparing' } })));
    const res = await gw.request('PUT', '/video/v1/assets/a1/master-access', { body: { master_access: 'temporary' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ master_access: 'temporary', master: { status: 'preparing' } });
    expect(gw.staticRenditions.updateMasterAccess).toHaveBeenCalledWith({ asset_id: 'a1', master_access: 'temporary' });
  });

  it('POST static-renditions answers 201 with the rendition; DELETE answers 204', async () => {
    const file: assets.StaticRenditionFile = {
      id: 'r1',
      name: '480p.mp4',
      ext: 'mp4',
      type: 'advanced',
      status: 'preparing',
      resolution: '480p',
      resolution_tier: '720p',
    };
    gw.staticRenditions.createStaticRendition.mockReturnValue(reply(file));
    const created = await gw.request('POST', '/video/v1/assets/a1/static-renditions', { body: { resolution: '480p', passthrough: 'p' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: { id: 'r1', name: '480p.mp4', ext: 'mp4', type: 'advanced', status: 'preparing', resolution: '480p', resolution_tier: '720p' },
    });
    expect(gw.staticRenditions.createStaticRendition).toHaveBeenCalledWith({ asset_id: 'a1', resolution: '480p', passthrough: 'p' });

    gw.staticRenditions.deleteStaticRendition.mockReturnValue(reply({}));
    const deleted = await gw.request('DELETE', '/video/v1/assets/a1/static-renditions/r1');
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect(gw.staticRenditions.deleteStaticRendition).toHaveBeenCalledWith({ asset_id: 'a1', static_rendition_id: 'r1' });
  });

  it.each<[string, string, string, unknown, string[]]>([
    [
      'an unknown mp4_support',
      'PUT',
      'mp4-support',
      { mp4_support: 'all' },
      ['mp4_support: must be one of "none", "standard", "capped-1080p", "audio-only", "audio-only,capped-1080p"'],
    ],
    ['no mp4_support', 'PUT', 'mp4-support', {}, ['mp4_support: must be one of "none", "standard", "capped-1080p", "audio-only", "audio-only,capped-1080p"']],
    ['an unknown master_access', 'PUT', 'master-access', { master_access: 'forever' }, ['master_access: must be one of "none", "temporary"']],
    [
      'an unknown resolution',
      'POST',
      'static-renditions',
      { resolution: '4k' },
      ['resolution: must be one of "highest", "audio-only", "2160p", "1440p", "1080p", "720p", "540p", "480p", "360p", "270p"'],
    ],
    [
      'a long passthrough',
      'POST',
      'static-renditions',
      { resolution: 'highest', passthrough: 'x'.repeat(256) },
      ['passthrough: must be at most 255 characters'],
    ],
    ['an unknown field', 'POST', 'static-renditions', { resolution: 'highest', name: 'x' }, ['name: is not a known field']],
  ])('refuses %s with 400 naming the field, calling nothing', async (_name, method, route, body, messages) => {
    const res = await gw.request(method, `/video/v1/assets/a1/${route}`, { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages } });
    for (const call of Object.values(gw.staticRenditions)) expect(call).not.toHaveBeenCalled();
  });

  it('maps the service’s refusals: unknown asset 404, errored asset or a rendition that exists 409', async () => {
    gw.staticRenditions.updateMp4Support.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Asset not found']));
    expect(await gw.request('PUT', '/video/v1/assets/nope/mp4-support', { body: { mp4_support: 'none' } })).toMatchObject({
      status: 404,
      body: { error: { type: 'not_found', messages: ['Asset not found'] } },
    });
    gw.staticRenditions.updateMasterAccess.mockReturnValue(
      grpcError(GrpcStatus.FAILED_PRECONDITION, ['The asset is errored: it has no media to make a master of']),
    );
    expect((await gw.request('PUT', '/video/v1/assets/a1/master-access', { body: { master_access: 'temporary' } })).status).toBe(409);
    gw.staticRenditions.createStaticRendition.mockReturnValue(
      grpcError(GrpcStatus.ALREADY_EXISTS, ['resolution: the asset already has a highest static rendition (r1)']),
    );
    const dup = await gw.request('POST', '/video/v1/assets/a1/static-renditions', { body: { resolution: 'highest' } });
    expect(dup).toMatchObject({ status: 409, body: { error: { messages: ['resolution: the asset already has a highest static rendition (r1)'] } } });
  });

  it('needs video:write for the changes (a read-only token gets 403)', async () => {
    const reader = await gw.token(['video:read']);
    const res = await gw.request('PUT', '/video/v1/assets/a1/mp4-support', { body: { mp4_support: 'standard' }, auth: reader });
    expect(res.status).toBe(403);
    expect(gw.staticRenditions.updateMp4Support).not.toHaveBeenCalled();
  });

  it('sets and clears a live stream’s static renditions for its next recordings (SDK routes)', async () => {
    const stream: live.LiveStream = {
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
      new_asset_settings: { input: [], playback_policy: [], static_renditions: [{ resolution: 'highest' }] },
    };
    gw.liveStreams.updateNewAssetStaticRenditions.mockReturnValue(reply(stream));
    const res = await gw.request('PUT', '/video/v1/live-streams/ls1/new-asset-settings/static-renditions', {
      body: { static_renditions: [{ resolution: 'highest' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.new_asset_settings).toEqual({ static_renditions: [{ resolution: 'highest' }] });
    expect(gw.liveStreams.updateNewAssetStaticRenditions).toHaveBeenCalledWith({ id: 'ls1', static_renditions: [{ resolution: 'highest' }] });
    const bad = await gw.request('PUT', '/video/v1/live-streams/ls1/new-asset-settings/static-renditions', {
      body: { static_renditions: [{ resolution: '8k' }] },
    });
    expect(bad.status).toBe(400);
    gw.liveStreams.deleteNewAssetStaticRenditions.mockReturnValue(reply({}));
    expect((await gw.request('DELETE', '/video/v1/live-streams/ls1/new-asset-settings/static-renditions')).status).toBe(204);
    expect(gw.liveStreams.deleteNewAssetStaticRenditions).toHaveBeenCalledWith({ id: 'ls1' });
  });

  it('creates assets with mp4_support, master_access and static_renditions passed on (no longer 501)', async () => {
    gw.assets.createAsset.mockReturnValue(reply(asset({ status: 'preparing' })));
    const res = await gw.request('POST', '/video/v1/assets', {
      body: {
        input: 'https://media.example/v.mp4',
        master_access: 'temporary',
        static_renditions: [{ resolution: 'highest' }, { resolution: 'audio-only', passthrough: 'a' }],
      },
    });
    expect(res.status).toBe(201);
    expect(gw.assets.createAsset).toHaveBeenCalledWith(
      expect.objectContaining({ master_access: 'temporary', static_renditions: [{ resolution: 'highest' }, { resolution: 'audio-only', passthrough: 'a' }] }),
    );
  });
});
