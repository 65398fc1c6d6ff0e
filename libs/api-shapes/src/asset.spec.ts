import { assets } from '@platform/proto';
import { assetSchema, toAsset, toAssetWarning, toTrackEvent, trackEventSchema } from './asset';

const message = (fields: Partial<assets.Asset> = {}): assets.Asset => ({
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

describe('asset shape', () => {
  it('writes Mux’s body: strings for *_at, absent and false fields left out, progress from the status', () => {
    const body = toAsset(message({ updated_at: 1700000100, passthrough: 'p', playback_ids: [{ id: 'p1', policy: 'public' }] }));
    expect(body).toEqual({
      id: 'a1',
      created_at: '1700000000',
      updated_at: '1700000100',
      status: 'preparing',
      progress: { state: 'ingesting', progress: 0 },
      max_resolution_tier: '1080p',
      encoding_tier: 'smart',
      video_quality: 'plus',
      master_access: 'none',
      mp4_support: 'none',
      ingest_type: 'on_demand_url',
      playback_ids: [{ id: 'p1', policy: 'public' }],
      passthrough: 'p',
    });
    expect(assetSchema.parse(body)).toEqual(body);
  });

  it('shows errors only when errored, is_live only for live recordings, reasons only when there are some', () => {
    const errors = { type: 'invalid_input', messages: ['bad'] };
    expect(toAsset(message({ errors })).errors).toBeUndefined();
    expect(toAsset(message({ status: 'errored', errors }))).toMatchObject({ errors, progress: { state: 'errored', progress: -1 } });
    expect(toAsset(message({ ingest_type: 'live_rtmp' })).is_live).toBe(true);
    expect(toAsset(message({ ingest_type: 'live_rtmp', status: 'ready' })).is_live).toBe(false);
    expect(toAsset(message()).is_live).toBeUndefined();
    expect(toAsset(message({ non_standard_input_reasons: { video_codec: 'hevc' } }))).toMatchObject({ progress: { state: 'transcoding', progress: 0 } });
  });

  it('names a clip’s source asset only on clips', () => {
    const clip = toAsset(message({ ingest_type: 'on_demand_clip', source_asset_id: 'src1' }));
    expect(clip).toMatchObject({ ingest_type: 'on_demand_clip', source_asset_id: 'src1' });
    expect(assetSchema.parse(clip)).toEqual(clip);
    expect('source_asset_id' in toAsset(message())).toBe(false);
  });

  it('shows thumbnail_time only when set, 0 included', () => {
    for (const thumbnail_time of [0, 12.5]) {
      const body = toAsset(message({ thumbnail_time }));
      expect(body.thumbnail_time).toBe(thumbnail_time);
      expect(assetSchema.parse(body)).toEqual(body);
    }
    expect('thumbnail_time' in toAsset(message())).toBe(false);
  });

  it('gives track events the track as the asset shows it plus asset_id, and warnings the asset plus warning', () => {
    const track: assets.Track = { id: 't1', type: 'text', status: 'ready', text_type: 'subtitles', text_source: 'generated_live_final', name: undefined };
    const data = toTrackEvent('a1', track);
    expect(data).toEqual({ id: 't1', type: 'text', status: 'ready', text_type: 'subtitles', text_source: 'generated_live_final', asset_id: 'a1' });
    expect(trackEventSchema.parse(data)).toEqual(data);
    expect(toAssetWarning(message(), { type: 'ladder_failed', message: 'm' })).toEqual({
      ...toAsset(message()),
      warning: { type: 'ladder_failed', message: 'm' },
    });
  });
});
