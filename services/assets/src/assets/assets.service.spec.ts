import { Logger } from '@nestjs/common';
import { ErrorCode } from '@platform/errors';
import { unixSeconds } from '@platform/ids';
import { assets } from '@platform/proto';
import { rejection } from '@platform/testing';
import { assetsFixture } from '../testing/assets-fixture';

const URL = 'https://media.example/video.mp4';
const input = (url: string): assets.AssetInput => ({ url, generated_subtitles: [] });
const request = (fields: Partial<assets.CreateAssetRequest> = {}): assets.CreateAssetRequest => ({
  input: [input(URL)],
  playback_policy: [],
  static_renditions: [],
  ...fields,
});
const JAN_1_2024 = '1704067200';

describe('AssetsService', () => {
  describe('create', () => {
    it('stores a preparing asset with Mux’s defaults and one playback id per policy, in order', async () => {
      const { service, assets: rows, playbackIds, manager } = assetsFixture();
      const created = await service.create(request({ playback_policy: ['public', 'signed', 'public'], passthrough: 'mine' }));

      expect(created.id).toMatch(/^[0-9A-Za-z]{32}$/);
      expect(created.playback_ids.map((p) => p.policy)).toEqual(['public', 'signed', 'public']);
      expect(new Set(created.playback_ids.map((p) => p.id)).size).toBe(3);
      const row = rows.rows.get(created.id)!;
      expect(created).toEqual({
        id: row.id,
        created_at: Number(unixSeconds(row.createdAt)),
        status: 'preparing',
        max_resolution_tier: '1080p',
        encoding_tier: 'smart',
        video_quality: 'plus',
        playback_ids: created.playback_ids,
        tracks: [],
        master_access: 'none',
        mp4_support: 'none',
        normalize_audio: false,
        non_standard_input_reasons: {},
        test: false,
        ingest_type: 'on_demand_url',
        recording_times: [],
        passthrough: 'mine',
      });
      expect(row).toMatchObject({ inputs: [{ url: URL }], updatedAt: null, inputInfo: null, errors: null, uploadId: null, liveStreamId: null });
      expect(playbackIds.rows.map((p) => ({ id: p.id, policy: p.policy, assetId: p.assetId }))).toEqual(
        created.playback_ids.map((p) => ({ ...p, assetId: created.id })),
      );
      expect(rows.managers).toEqual([manager]);
    });

    it('emits video.asset.created with the asset as the REST API shows it', async () => {
      const { service, events } = assetsFixture();
      const created = await service.create(request({ playback_policy: ['public'], passthrough: 'p', test: true }));
      expect(events).toEqual([
        {
          type: 'video.asset.created',
          object: { type: 'asset', id: created.id },
          data: {
            id: created.id,
            created_at: String(created.created_at),
            status: 'preparing',
            progress: { state: 'ingesting', progress: 0 },
            max_resolution_tier: '1080p',
            encoding_tier: 'smart',
            video_quality: 'plus',
            master_access: 'none',
            mp4_support: 'none',
            ingest_type: 'on_demand_url',
            playback_ids: created.playback_ids,
            passthrough: 'p',
            test: true,
          },
        },
      ]);
    });

    it('leaves playback_ids, passthrough and test out of the event when there are none', async () => {
      const { service, events } = assetsFixture();
      await service.create(request({ passthrough: '' }));
      expect(Object.keys(events[0].data).sort()).toEqual(
        [
          'created_at',
          'encoding_tier',
          'id',
          'ingest_type',
          'master_access',
          'max_resolution_tier',
          'mp4_support',
          'progress',
          'status',
          'video_quality',
        ].sort(),
      );
    });

    it.each([
      [{ encoding_tier: 'baseline' }, 'baseline', 'basic'],
      [{ encoding_tier: 'smart' }, 'smart', 'plus'],
      [{ video_quality: 'basic' }, 'baseline', 'basic'],
      [{ video_quality: 'plus' }, 'smart', 'plus'],
      [{ video_quality: 'premium' }, 'premium', 'premium'],
      [{ encoding_tier: 'baseline', video_quality: 'basic' }, 'baseline', 'basic'],
    ])('relates encoding_tier and video_quality as Mux does: %j', async (fields, tier, quality) => {
      const { service } = assetsFixture();
      const created = await service.create(request(fields));
      expect([created.encoding_tier, created.video_quality]).toEqual([tier, quality]);
    });

    it('keeps the tiers and flags it is given', async () => {
      const { service } = assetsFixture();
      const created = await service.create(
        request({ max_resolution_tier: '2160p', test: true, mp4_support: 'none', master_access: 'none', normalize_audio: false }),
      );
      expect(created).toMatchObject({ max_resolution_tier: '2160p', test: true, mp4_support: 'none', master_access: 'none', normalize_audio: false });
    });

    it('takes a watermark input and normalize_audio, and hands both to the transcoder in the ingest spec', async () => {
      const { service, assets: rows, processing } = assetsFixture();
      const watermark = {
        ...input('https://media.example/logo.png'),
        overlay_settings: { vertical_align: 'bottom', vertical_margin: '5%', width: '10%', opacity: '80%' },
      };
      const created = await service.create(
        request({ input: [input(URL), watermark], normalize_audio: true, max_resolution_tier: '1440p', video_quality: 'premium' }),
      );
      expect(created).toMatchObject({ status: 'preparing', normalize_audio: true });
      expect(rows.rows.get(created.id)!.inputs).toEqual([
        { url: URL },
        { url: 'https://media.example/logo.png', overlay_settings: { vertical_align: 'bottom', vertical_margin: '5%', width: '10%', opacity: '80%' } },
      ]);
      const spec = await processing.getIngestSpec(created.id);
      expect(spec).toMatchObject({ normalize_audio: true, max_resolution_tier: '1440p', video_quality: 'premium', encoding_tier: 'premium' });
      expect(spec.input[1].overlay_settings).toEqual(watermark.overlay_settings);
    });

    it('takes an asset of a direct upload without an input url, with its upload id and ingest type', async () => {
      const { service } = assetsFixture();
      const created = await service.create({
        input: [],
        static_renditions: [],
        playback_policy: ['public'],
        upload_id: 'up1',
        ingest_type: 'on_demand_direct_upload',
      });
      expect(created).toMatchObject({ upload_id: 'up1', ingest_type: 'on_demand_direct_upload', status: 'preparing' });
    });

    it('keeps the stored file of a direct upload as its input, and makes one asset per upload however often asked', async () => {
      const { service, assets: rows, events } = assetsFixture();
      const upload = {
        input: [{ object_key: 'uploads/up2/source', generated_subtitles: [] }],
        static_renditions: [],
        playback_policy: ['public'],
        upload_id: 'up2',
        ingest_type: 'on_demand_direct_upload',
      };
      const first = await service.create(upload);
      const again = await service.create(upload);
      expect(again.id).toBe(first.id);
      expect(again.playback_ids).toEqual(first.playback_ids);
      expect(rows.rows.size).toBe(1);
      expect([...rows.rows.values()][0].inputs).toEqual([{ object_key: 'uploads/up2/source' }]);
      expect(events.map((e) => e.type)).toEqual(['video.asset.created']);
    });

    it.each<[string, Partial<assets.CreateAssetRequest>, string[]]>([
      [
        'a url on a direct upload',
        { input: [{ url: URL, generated_subtitles: [] }], upload_id: 'up3', ingest_type: 'on_demand_direct_upload' },
        ['input[0].url: must be omitted for a direct upload (the uploaded file is the main input)'],
      ],
      [
        'a url on a live stream’s asset',
        { input: [{ url: URL, generated_subtitles: [] }], live_stream_id: 'ls1', ingest_type: 'live_rtmp' },
        ['input[0].url: must be omitted for a live stream (the stream is the main input)'],
      ],
      [
        'normalize_audio on a live stream’s asset (on-demand assets only)',
        { input: [], live_stream_id: 'ls1', ingest_type: 'live_srt', normalize_audio: true },
        ["normalize_audio: only for on-demand assets (a live stream's recordings are not normalized)"],
      ],
      [
        'a stored file on a URL asset',
        { input: [{ url: URL, object_key: 'uploads/x/source', generated_subtitles: [] }] },
        ['input[0].object_key: only the uploads service names a stored file (uploads/{id}/source)'],
      ],
      [
        'a stored file outside uploads/',
        { input: [{ object_key: 'assets/x/hls/master.m3u8', generated_subtitles: [] }], upload_id: 'x', ingest_type: 'on_demand_direct_upload' },
        ['input[0].object_key: only the uploads service names a stored file (uploads/{id}/source)'],
      ],
    ])('refuses %s', async (_name, fields, messages) => {
      const { service } = assetsFixture();
      const error = await rejection(service.create(request(fields)));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual(messages);
      expect(() => service.checkSettings(request(fields))).toThrow(messages[0]);
    });

    it.each<[string, Partial<assets.CreateAssetRequest>, string[]]>([
      ['no input', { input: [] }, ['input: is required (the URL of a media file)']],
      ['an input without url', { input: [{ generated_subtitles: [] }] }, ['input[0].url: is required']],
      ['an ftp url', { input: [{ url: 'ftp://media.example/a.mp4', generated_subtitles: [] }] }, ['input[0].url: must be an http or https URL']],
      ['a relative url', { input: [{ url: '/a.mp4', generated_subtitles: [] }] }, ['input[0].url: must be an http or https URL']],
      ['a file url', { input: [{ url: 'file:///etc/passwd', generated_subtitles: [] }] }, ['input[0].url: must be an http or https URL']],
      ['an unknown policy', { playback_policy: ['public', 'everyone'] }, ['playback_policy[1]: must be one of "public", "signed"']],
      ['a long passthrough', { passthrough: 'x'.repeat(256) }, ['passthrough: must be at most 255 characters']],
      ['a 720p max tier', { max_resolution_tier: '720p' }, ['max_resolution_tier: must be one of "1080p", "1440p", "2160p"']],
      ['an unknown encoding tier', { encoding_tier: 'fast' }, ['encoding_tier: must be one of "smart", "baseline", "premium"']],
      ['an unknown video quality', { video_quality: 'good' }, ['video_quality: must be one of "basic", "plus", "premium"']],
      [
        'a contradiction',
        { encoding_tier: 'baseline', video_quality: 'plus' },
        ['video_quality: "plus" contradicts encoding_tier "baseline" (smart is plus, baseline is basic, premium is premium)'],
      ],
      [
        'an unknown mp4_support',
        { mp4_support: 'all' },
        ['mp4_support: must be one of "none", "standard", "capped-1080p", "audio-only", "audio-only,capped-1080p"'],
      ],
      ['an unknown master_access', { master_access: 'forever' }, ['master_access: must be one of "none", "temporary"']],
      [
        'an unknown ingest type',
        { ingest_type: 'carrier_pigeon' },
        ['ingest_type: must be one of "on_demand_url", "on_demand_direct_upload", "on_demand_clip", "live_rtmp", "live_srt"'],
      ],
      [
        'several problems',
        { input: [{ url: 'rtmp://x/y', generated_subtitles: [] }], passthrough: 'x'.repeat(300), playback_policy: ['drm'] },
        ['input[0].url: must be an http or https URL', 'playback_policy[0]: must be one of "public", "signed"', 'passthrough: must be at most 255 characters'],
      ],
    ])('refuses %s with INVALID_PARAMETERS naming the field, storing and emitting nothing', async (_name, fields, messages) => {
      const { service, assets: rows, events } = assetsFixture();
      const error = await rejection(service.create(request(fields)));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual(messages);
      expect(rows.rows.size).toBe(0);
      expect(events).toEqual([]);
    });

    it.each<[string, Partial<assets.CreateAssetRequest>, string[]]>([
      [
        'a watermark on a live stream',
        {
          input: [{ generated_subtitles: [] }, { ...input('https://media.example/logo.png'), overlay_settings: {} }],
          ingest_type: 'live_rtmp',
          live_stream_id: 'ls1',
        },
        ['input[1].overlay_settings: watermarks on live streams are not implemented yet (live video is packaged without re-encoding)'],
      ],
    ])('answers NOT_IMPLEMENTED for %s, storing nothing', async (_name, fields, messages) => {
      const { service, assets: rows, events } = assetsFixture();
      const error = await rejection(service.create(request(fields)));
      expect(error.code).toBe(ErrorCode.NOT_IMPLEMENTED);
      expect(error.messages).toEqual(messages);
      expect(rows.rows.size).toBe(0);
      expect(events).toEqual([]);
    });

    it('reports invalid fields before features not built yet', async () => {
      const { service } = assetsFixture();
      const error = await rejection(service.create(request({ normalize_audio: true, passthrough: 'x'.repeat(256) })));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
    });
  });

  describe('get and list', () => {
    it('gets an asset with its playback ids; an unknown one is NOT_FOUND', async () => {
      const f = assetsFixture();
      const { asset, playbackIds } = f.stored({ passthrough: 'pt' }, ['signed', 'public']);
      const got = await f.service.get(asset.id);
      expect(got).toMatchObject({ id: asset.id, created_at: Number(JAN_1_2024), passthrough: 'pt', status: 'preparing' });
      expect(got.playback_ids).toEqual(playbackIds.map((p) => ({ id: p.id, policy: p.policy })));
      expect(got.updated_at).toBeUndefined();
      const error = await rejection(f.service.get('nope'));
      expect([error.code, error.messages]).toEqual([ErrorCode.NOT_FOUND, ['Asset not found']]);
    });

    it('lists newest first by whole pages, each asset with its own playback ids', async () => {
      const f = assetsFixture();
      const ids = [1, 2, 3].map((day) => f.stored({ id: `a${day}`, createdAt: new Date(Date.UTC(2024, 0, day)) }, ['public']).asset.id);
      expect((await f.service.list({ limit: 0, page: 0 })).items.map((a) => a.id)).toEqual(['a3', 'a2', 'a1']);
      expect((await f.service.list({ limit: 2, page: 1 })).items.map((a) => a.id)).toEqual(['a3', 'a2']);
      const second = await f.service.list({ limit: 2, page: 2 });
      expect(second.items.map((a) => [a.id, a.playback_ids])).toEqual([['a1', [{ id: 'a1-pb0', policy: 'public' }]]]);
      expect((await f.service.list({ limit: 2, page: 3 })).items).toEqual([]);
      expect(ids).toHaveLength(3);
    });

    it('filters by live_stream_id and upload_id', async () => {
      const f = assetsFixture();
      f.stored({ id: 'live', liveStreamId: 'ls1' });
      f.stored({ id: 'upload', uploadId: 'up1' });
      f.stored({ id: 'plain' });
      expect((await f.service.list({ limit: 25, page: 1, live_stream_id: 'ls1' })).items.map((a) => a.id)).toEqual(['live']);
      expect((await f.service.list({ limit: 25, page: 1, upload_id: 'up1' })).items.map((a) => a.id)).toEqual(['upload']);
      expect((await f.service.list({ limit: 25, page: 1, upload_id: 'none' })).items).toEqual([]);
    });
  });

  describe('update (PATCH passthrough)', () => {
    it('sets passthrough and updated_at, emitting video.asset.updated with the asset', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({}, ['public']);
      const updated = await f.service.update({ id: asset.id, passthrough: 'new' });
      const row = f.assets.rows.get(asset.id)!;
      expect(row.passthrough).toBe('new');
      expect(Number.isFinite(row.updatedAt!.getTime())).toBe(true);
      expect(updated).toMatchObject({
        passthrough: 'new',
        updated_at: Number(unixSeconds(row.updatedAt!)),
        playback_ids: [{ id: `${asset.id}-pb0`, policy: 'public' }],
      });
      expect(f.events).toEqual([
        {
          type: 'video.asset.updated',
          object: { type: 'asset', id: asset.id },
          data: expect.objectContaining({
            id: asset.id,
            passthrough: 'new',
            updated_at: unixSeconds(row.updatedAt!),
            created_at: JAN_1_2024,
            playback_ids: updated.playback_ids,
          }),
        },
      ]);
    });

    it('clears passthrough with an empty string', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ passthrough: 'old' });
      const updated = await f.service.update({ id: asset.id, passthrough: '' });
      expect(updated.passthrough).toBeUndefined();
      expect(f.assets.rows.get(asset.id)!.passthrough).toBeNull();
      expect(f.events[0].data).not.toHaveProperty('passthrough');
    });

    it.each<[Partial<assets.UpdateAssetRequest>, ErrorCode, string[]]>([
      [{ passthrough: undefined }, ErrorCode.INVALID_PARAMETERS, ['body: give at least one of passthrough, thumbnail_time']],
      [{ passthrough: 'x'.repeat(256) }, ErrorCode.INVALID_PARAMETERS, ['passthrough: must be at most 255 characters']],
      [{ id: 'nope', passthrough: 'x' }, ErrorCode.NOT_FOUND, ['Asset not found']],
      [{ thumbnail_time: -0.001 }, ErrorCode.INVALID_PARAMETERS, ['thumbnail_time: must be at least 0']],
      [{ thumbnail_time: 43200.001 }, ErrorCode.INVALID_PARAMETERS, ['thumbnail_time: must be at most 43200']],
      [{ thumbnail_time: Number.NaN }, ErrorCode.INVALID_PARAMETERS, ['thumbnail_time: must be a finite number']],
      [{ thumbnail_time: Number.POSITIVE_INFINITY }, ErrorCode.INVALID_PARAMETERS, ['thumbnail_time: must be a finite number']],
      [
        { passthrough: 'x'.repeat(256), thumbnail_time: -1 },
        ErrorCode.INVALID_PARAMETERS,
        ['passthrough: must be at most 255 characters', 'thumbnail_time: must be at least 0'],
      ],
      // the value is checked before the asset is looked up
      [{ id: 'nope', thumbnail_time: -1 }, ErrorCode.INVALID_PARAMETERS, ['thumbnail_time: must be at least 0']],
      [{ id: 'nope', thumbnail_time: 1 }, ErrorCode.NOT_FOUND, ['Asset not found']],
    ])('refuses %j, changing and emitting nothing', async (fields, code, messages) => {
      const f = assetsFixture();
      const { asset } = f.stored({ passthrough: 'kept' });
      const error = await rejection(f.service.update({ id: asset.id, ...fields }));
      expect([error.code, error.messages]).toEqual([code, messages]);
      expect(f.assets.rows.get(asset.id)).toMatchObject({ passthrough: 'kept', thumbnailTime: null, updatedAt: null });
      expect(f.events).toEqual([]);
    });
  });

  describe('thumbnail_time (PATCH, DELETE …/thumbnail-time)', () => {
    it('sets it with updated_at in the unit of work that emits video.asset.updated, whose data shows it', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready', duration: 6.006 }, ['public']);
      const updated = await f.service.update({ id: asset.id, thumbnail_time: 2.5 });
      const row = f.assets.rows.get(asset.id)!;
      expect(row).toMatchObject({ thumbnailTime: 2.5, passthrough: null });
      expect(updated).toMatchObject({ thumbnail_time: 2.5, duration: 6.006, updated_at: Number(unixSeconds(row.updatedAt!)) });
      // the row was read under its lock and written with the manager of the transaction the event is written in
      expect(f.assets.managers).toEqual([f.manager, f.manager]);
      expect(f.events).toEqual([
        {
          type: 'video.asset.updated',
          object: { type: 'asset', id: asset.id },
          data: expect.objectContaining({ id: asset.id, thumbnail_time: 2.5, updated_at: unixSeconds(row.updatedAt!), playback_ids: updated.playback_ids }),
        },
      ]);
    });

    it('takes 0 and the duration itself, and sets it with passthrough in one change and one event', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready', duration: 6.006 });
      expect((await f.service.update({ id: asset.id, thumbnail_time: 0 })).thumbnail_time).toBe(0);
      expect((await f.service.update({ id: asset.id, thumbnail_time: 6.006 })).thumbnail_time).toBe(6.006);
      f.events.length = 0;
      const both = await f.service.update({ id: asset.id, passthrough: 'p', thumbnail_time: 1 });
      expect(both).toMatchObject({ passthrough: 'p', thumbnail_time: 1 });
      expect(f.events.map((e) => [e.type, e.data])).toEqual([['video.asset.updated', expect.objectContaining({ passthrough: 'p', thumbnail_time: 1 })]]);
    });

    it('keeps it when only passthrough changes', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ thumbnailTime: 3 });
      expect((await f.service.update({ id: asset.id, passthrough: 'p' })).thumbnail_time).toBe(3);
      expect(f.assets.rows.get(asset.id)!.thumbnailTime).toBe(3);
    });

    it('refuses a value beyond a known duration, changing nothing (passthrough neither) and emitting nothing', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready', duration: 6.006, thumbnailTime: 1, passthrough: 'kept' });
      const error = await rejection(f.service.update({ id: asset.id, passthrough: 'new', thumbnail_time: 6.5 }));
      expect([error.code, error.messages]).toEqual([ErrorCode.INVALID_PARAMETERS, ["thumbnail_time: must be within the asset's duration (6.006 s)"]]);
      expect(f.assets.rows.get(asset.id)).toMatchObject({ thumbnailTime: 1, passthrough: 'kept', updatedAt: null });
      expect(f.events).toEqual([]);
    });

    it('stores any value up to 12 hours as given while the duration is unknown (preparing, or a recording under way)', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'preparing', duration: null });
      expect((await f.service.update({ id: asset.id, thumbnail_time: 43200 })).thumbnail_time).toBe(43200);
      const { asset: recording } = f.stored({ status: 'preparing', ingestType: 'live_rtmp', liveStreamId: 'ls1', duration: null });
      expect((await f.service.update({ id: recording.id, thumbnail_time: 600 })).thumbnail_time).toBe(600);
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.updated', 'video.asset.updated']);
    });

    it('unsets it with updated_at, emitting video.asset.updated without it, in the same unit of work', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready', duration: 6, thumbnailTime: 2 }, ['public']);
      await f.service.deleteThumbnailTime(asset.id);
      const row = f.assets.rows.get(asset.id)!;
      expect(row.thumbnailTime).toBeNull();
      expect(row.updatedAt).not.toBeNull();
      expect(f.assets.managers).toEqual([f.manager, f.manager]);
      expect(f.events).toHaveLength(1);
      expect(f.events[0]).toMatchObject({ type: 'video.asset.updated', object: { type: 'asset', id: asset.id } });
      expect(f.events[0].data).toMatchObject({
        id: asset.id,
        updated_at: unixSeconds(row.updatedAt!),
        playback_ids: [{ id: `${asset.id}-pb0`, policy: 'public' }],
      });
      expect(f.events[0].data).not.toHaveProperty('thumbnail_time');
      expect((await f.service.get(asset.id)).thumbnail_time).toBeUndefined();
    });

    it('unsetting an asset without one succeeds and changes nothing: no write, no event', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ status: 'ready', duration: 6 });
      await f.service.deleteThumbnailTime(asset.id);
      expect(f.assets.rows.get(asset.id)).toMatchObject({ thumbnailTime: null, updatedAt: null });
      expect(f.events).toEqual([]);
      // read under its lock only
      expect(f.assets.managers).toEqual([f.manager]);
    });

    it('unsetting is NOT_FOUND for an unknown or deleted asset', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ thumbnailTime: 2 });
      await f.service.delete(asset.id);
      f.events.length = 0;
      for (const id of [asset.id, 'nope']) {
        const error = await rejection(f.service.deleteThumbnailTime(id));
        expect([error.code, error.messages]).toEqual([ErrorCode.NOT_FOUND, ['Asset not found']]);
      }
      expect(f.events).toEqual([]);
    });
  });

  describe('delete', () => {
    it('removes the row, its playback ids and its files (only its own), emitting video.asset.deleted with the asset as it was', async () => {
      const f = assetsFixture();
      const { asset, playbackIds } = f.stored({ passthrough: 'bye' }, ['public']);
      f.stored({ id: 'other' }, ['signed']);
      await f.store.putBuffer(`assets/${asset.id}/hls/master.m3u8`, '#EXTM3U');
      await f.store.putBuffer(`assets/${asset.id}/hls/source/segment_000.ts`, 'ts');
      await f.store.putBuffer('assets/other/hls/master.m3u8', '#EXTM3U');

      await f.service.delete(asset.id);

      expect(f.assets.rows.has(asset.id)).toBe(false);
      expect(f.playbackIds.rows.map((p) => p.id)).toEqual(['other-pb0']);
      expect([...f.store.objects.keys()]).toEqual(['assets/other/hls/master.m3u8']);
      expect(f.events).toEqual([
        {
          type: 'video.asset.deleted',
          object: { type: 'asset', id: asset.id },
          data: expect.objectContaining({ id: asset.id, passthrough: 'bye', status: 'preparing', playback_ids: [{ id: playbackIds[0].id, policy: 'public' }] }),
        },
      ]);
      expect((await rejection(f.service.get(asset.id))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(f.playback.lookup(playbackIds[0].id))).code).toBe(ErrorCode.NOT_FOUND);
    });

    it('removes the uploaded source file of an asset made from a direct upload', async () => {
      const f = assetsFixture();
      const { asset } = f.stored({ uploadId: 'up9', ingestType: 'on_demand_direct_upload', inputs: [{ object_key: 'uploads/up9/source' }] }, []);
      await f.store.putBuffer('uploads/up9/source', 'media');
      await f.store.putBuffer('uploads/up10/source', 'another upload');
      await f.service.delete(asset.id);
      expect([...f.store.objects.keys()]).toEqual(['uploads/up10/source']);
    });

    it('is NOT_FOUND for an unknown or already deleted asset, emitting nothing', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      await f.service.delete(asset.id);
      const error = await rejection(f.service.delete(asset.id));
      expect([error.code, error.messages]).toEqual([ErrorCode.NOT_FOUND, ['Asset not found']]);
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.deleted']);
    });

    it('still deletes the asset when the object store fails (the files are logged as left behind)', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      await f.store.putBuffer(`assets/${asset.id}/hls/master.m3u8`, '#EXTM3U');
      f.store.failDeletes = true;
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      await expect(f.service.delete(asset.id)).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith(`asset ${asset.id} deleted, but removing its files failed: object store unavailable`);
      logged.mockRestore();
      expect(f.assets.rows.has(asset.id)).toBe(false);
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.deleted']);
    });
  });

  describe('deleteExpiredTestAsset (the sweeper’s delete)', () => {
    it('deletes like DELETE only a test asset created before the cutoff, read again under its lock', async () => {
      const f = assetsFixture();
      const cutoff = new Date(Date.UTC(2024, 0, 2));
      f.stored({ id: 'old-test', test: true }, ['public']);
      f.stored({ id: 'old-real', test: false });
      f.stored({ id: 'new-test', test: true, createdAt: new Date(Date.UTC(2024, 0, 3)) });
      await f.store.putBuffer('assets/old-test/hls/master.m3u8', '#EXTM3U');

      expect(await f.service.deleteExpiredTestAsset('old-test', cutoff)).toBe(true);
      expect(await f.service.deleteExpiredTestAsset('old-real', cutoff)).toBe(false);
      expect(await f.service.deleteExpiredTestAsset('new-test', cutoff)).toBe(false);
      expect(await f.service.deleteExpiredTestAsset('gone', cutoff)).toBe(false);

      expect([...f.assets.rows.keys()].sort()).toEqual(['new-test', 'old-real']);
      expect(f.playbackIds.rows).toEqual([]);
      expect(f.store.objects.size).toBe(0);
      expect(f.events.map((e) => [e.type, e.object.id])).toEqual([['video.asset.deleted', 'old-test']]);
    });
  });

  describe('input info', () => {
    it('is an empty list until the probe, then what the probe recorded', async () => {
      const f = assetsFixture();
      const { asset } = f.stored();
      expect(await f.service.getInputInfo(asset.id)).toEqual({ items: [] });
      const info: assets.InputInfo = {
        settings: { url: 'https://media.example/in.mp4', generated_subtitles: [] },
        file: {
          container_format: 'mov,mp4,m4a,3gp,3g2,mj2',
          tracks: [{ type: 'video', width: 1280, height: 720, frame_rate: 30, encoding: 'h264', duration: 6 }],
        },
      };
      await f.processing.recordProbe({ asset_id: asset.id, tracks: [], non_standard_input_reasons: {}, input_info: [info], recording_times: [] });
      expect(await f.service.getInputInfo(asset.id)).toEqual({ items: [info] });
      expect((await rejection(f.service.getInputInfo('nope'))).code).toBe(ErrorCode.NOT_FOUND);
    });
  });
});
