import { assets } from '@platform/proto';
import { assetSchema, toAsset } from './asset';
import { staticRenditionEventSchema, toStaticRenditionEvent } from './static-rendition';

const message = (fields: Partial<assets.Asset> = {}): assets.Asset => ({
  id: 'a1',
  created_at: 1700000000,
  status: 'ready',
  max_resolution_tier: '1080p',
  encoding_tier: 'smart',
  video_quality: 'plus',
  playback_ids: [],
  tracks: [],
  master_access: 'none',
  mp4_support: 'standard',
  normalize_audio: false,
  non_standard_input_reasons: {},
  test: false,
  ingest_type: 'on_demand_url',
  recording_times: [],
  ...fields,
});

describe('static renditions and master in the asset shape', () => {
  it('writes mp4_support files as Mux does (no per-file status) and filesize as a string', () => {
    const body = toAsset(
      message({
        static_renditions: {
          status: 'ready',
          files: [{ name: 'high.mp4', ext: 'mp4', width: 1280, height: 720, bitrate: 2_000_000, filesize: 1_234_567 }],
        },
      }),
    );
    expect(body.static_renditions).toEqual({
      status: 'ready',
      files: [{ name: 'high.mp4', ext: 'mp4', width: 1280, height: 720, bitrate: 2_000_000, filesize: '1234567' }],
    });
    expect(assetSchema.parse(body)).toEqual(body);
  });

  it('writes Static Renditions API files with their id, type, status, resolution and tier; absent fields left out', () => {
    const file: assets.StaticRenditionFile = { id: 'r1', name: 'highest.mp4', ext: 'mp4', type: 'standard', status: 'preparing', resolution: 'highest' };
    const body = toAsset(message({ mp4_support: 'none', static_renditions: { status: 'disabled', files: [file] } }));
    expect(body.static_renditions).toEqual({
      status: 'disabled',
      files: [{ id: 'r1', name: 'highest.mp4', ext: 'mp4', type: 'standard', status: 'preparing', resolution: 'highest' }],
    });
    expect(assetSchema.parse(body)).toEqual(body);
  });

  it('shows master only when given, its url only when there is one', () => {
    expect(toAsset(message()).master).toBeUndefined();
    expect(toAsset(message()).static_renditions).toBeUndefined();
    expect(toAsset(message({ master_access: 'temporary', master: { status: 'preparing' } })).master).toEqual({ status: 'preparing' });
    const ready = toAsset(message({ master_access: 'temporary', master: { status: 'ready', url: 'http://s/master/t/master.mp4' } }));
    expect(ready.master).toEqual({ status: 'ready', url: 'http://s/master/t/master.mp4' });
    expect(assetSchema.parse(ready)).toEqual(ready);
  });

  it('gives static_rendition events the file as the asset shows it plus asset_id (SDK WebhookAssetStaticRendition)', () => {
    const data = toStaticRenditionEvent('a1', { id: 'r1', name: '480p.mp4', ext: 'mp4', type: 'advanced', status: 'skipped', resolution: '480p' });
    expect(data).toEqual({ id: 'r1', name: '480p.mp4', ext: 'mp4', type: 'advanced', status: 'skipped', resolution: '480p', asset_id: 'a1' });
    expect(staticRenditionEventSchema.parse(data)).toEqual(data);
  });
});
