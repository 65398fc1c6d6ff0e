import { DomainError, ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { assetKeys } from '@platform/storage';
import { assetsFixture } from '../testing/assets-fixture';

const URL = 'https://media.example/video.mp4';
const request = (fields: Partial<assets.CreateAssetRequest> = {}): assets.CreateAssetRequest => ({
  input: [{ url: URL, generated_subtitles: [] }],
  playback_policy: ['public'],
  static_renditions: [],
  ...fields,
});
const HD_TRACKS: assets.Track[] = [
  { id: '', type: 'video', max_width: 1280, max_height: 720 },
  { id: '', type: 'audio', max_channels: 2 },
];

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

/** An asset created through the service, then probed (1280x720 with audio) and made ready. */
async function readyAsset(f: ReturnType<typeof assetsFixture>, fields: Partial<assets.CreateAssetRequest> = {}) {
  const created = await f.service.create(request(fields));
  await f.processing.recordProbe({ asset_id: created.id, tracks: HD_TRACKS, non_standard_input_reasons: {}, input_info: [], recording_times: [] });
  await f.processing.markReady({ asset_id: created.id });
  return created;
}

const made = (assetId: string, target: string, name: string, size: [number, number] = [1280, 720]): assets.RecordStaticRenditionRequest => ({
  asset_id: assetId,
  target,
  name,
  status: 'ready',
  width: size[0],
  height: size[1],
  bitrate: 1_500_000,
  error_message: '',
});

describe('static renditions (assets service)', () => {
  describe('mp4_support', () => {
    it('is preparing from creation (with its event) and waits for the asset to be ingested', async () => {
      const f = assetsFixture();
      const created = await f.service.create(request({ mp4_support: 'standard' }));
      expect(created.static_renditions).toEqual({ status: 'preparing', files: [] });
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.created', 'video.asset.static_renditions.preparing']);
      expect(f.events[1].data).toMatchObject({ id: created.id, mp4_support: 'standard', static_renditions: { status: 'preparing', files: [] } });
      expect(await f.staticRenditions.plan({ asset_id: created.id, target: 'mp4_support' })).toEqual({
        action: 'wait',
        files: [],
        reason: 'the asset is not ingested yet',
      });
    });

    it('plans the files of the stored size, lists each once stored (size from the store), ready with the last', async () => {
      const f = assetsFixture();
      const { id } = await readyAsset(f, { mp4_support: 'standard' });
      const plan = await f.staticRenditions.plan({ asset_id: id, target: 'mp4_support' });
      expect(plan).toEqual({
        action: 'make',
        reason: '',
        files: [
          { name: 'low.mp4', video: true, audio: true, short_side: 360 },
          { name: 'medium.mp4', video: true, audio: true, short_side: 540 },
          { name: 'high.mp4', video: true, audio: true, short_side: 720 },
        ],
      });
      f.events.length = 0;
      await f.store.putBuffer(assetKeys.staticRendition(id, 'high.mp4'), Buffer.alloc(3000));
      const afterHigh = await f.staticRenditions.record(made(id, 'mp4_support', 'high.mp4'));
      expect(afterHigh.static_renditions).toEqual({
        status: 'preparing',
        files: [{ name: 'high.mp4', ext: 'mp4', width: 1280, height: 720, bitrate: 1_500_000, filesize: 3000 }],
      });
      expect(f.events).toEqual([]);
      // a file the transcoder says it stored but the store does not have is refused
      expect((await rejection(f.staticRenditions.record(made(id, 'mp4_support', 'low.mp4', [640, 360])))).code).toBe(ErrorCode.PRECONDITION_FAILED);
      await f.store.putBuffer(assetKeys.staticRendition(id, 'low.mp4'), Buffer.alloc(1000));
      await f.store.putBuffer(assetKeys.staticRendition(id, 'medium.mp4'), Buffer.alloc(2000));
      await f.staticRenditions.record(made(id, 'mp4_support', 'low.mp4', [640, 360]));
      const done = await f.staticRenditions.record(made(id, 'mp4_support', 'medium.mp4', [960, 540]));
      expect(done.static_renditions?.status).toBe('ready');
      expect(done.static_renditions?.files.map((file) => [file.name, file.width, file.height, file.filesize])).toEqual([
        ['low.mp4', 640, 360, 1000],
        ['medium.mp4', 960, 540, 2000],
        ['high.mp4', 1280, 720, 3000],
      ]);
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.static_renditions.ready']);
      // a repeated report changes nothing; the plan has nothing left
      await f.staticRenditions.record(made(id, 'mp4_support', 'low.mp4', [640, 360]));
      expect(f.events).toHaveLength(1);
      expect((await f.staticRenditions.plan({ asset_id: id, target: 'mp4_support' })).action).toBe('none');
      expect(await f.staticRenditions.lookup({ asset_id: id, name: 'low.mp4' })).toMatchObject({ name: 'low.mp4', filesize: 1000, asset_id: id });
    });

    it('none deletes the files and the object (static_renditions.deleted); a report for it is then refused', async () => {
      const f = assetsFixture();
      const { id } = await readyAsset(f, { mp4_support: 'standard' });
      await f.store.putBuffer(assetKeys.staticRendition(id, 'low.mp4'), Buffer.alloc(10));
      await f.staticRenditions.record(made(id, 'mp4_support', 'low.mp4'));
      f.clock.at = new Date(Date.UTC(2024, 0, 3));
      f.events.length = 0;
      const after = await f.staticRenditions.updateMp4Support({ asset_id: id, mp4_support: 'none' });
      expect(after.static_renditions).toBeUndefined();
      expect(after).toMatchObject({ mp4_support: 'none', updated_at: Date.UTC(2024, 0, 3) / 1000 });
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.static_renditions.deleted']);
      expect(f.events[0].data.static_renditions).toBeUndefined();
      expect(await f.store.list(`assets/${id}/static/`)).toEqual([]);
      expect((await rejection(f.staticRenditions.record(made(id, 'mp4_support', 'medium.mp4')))).code).toBe(ErrorCode.PRECONDITION_FAILED);
      expect((await rejection(f.staticRenditions.lookup({ asset_id: id, name: 'low.mp4' }))).code).toBe(ErrorCode.NOT_FOUND);
      // none again changes nothing
      await f.staticRenditions.updateMp4Support({ asset_id: id, mp4_support: 'none' });
      expect(f.events).toHaveLength(1);
    });

    it('PUT standard on a ready asset starts preparing; the same value again changes nothing; an errored set starts over', async () => {
      const f = assetsFixture();
      const { id } = await readyAsset(f);
      f.events.length = 0;
      const put = await f.staticRenditions.updateMp4Support({ asset_id: id, mp4_support: 'standard' });
      expect(put.static_renditions).toEqual({ status: 'preparing', files: [] });
      await f.staticRenditions.updateMp4Support({ asset_id: id, mp4_support: 'standard' });
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.static_renditions.preparing']);
      const failed = await f.staticRenditions.record({ ...made(id, 'mp4_support', 'low.mp4'), status: 'errored', error_message: 'ffmpeg died' });
      expect(failed.static_renditions?.status).toBe('errored');
      await f.staticRenditions.updateMp4Support({ asset_id: id, mp4_support: 'standard' });
      expect(f.events.map((e) => e.type)).toEqual([
        'video.asset.static_renditions.preparing',
        'video.asset.static_renditions.errored',
        'video.asset.static_renditions.preparing',
      ]);
    });

    it('errors audio-only of a video-only asset when planned; refuses an errored asset and an asset with API renditions (409), a bad value (400)', async () => {
      const f = assetsFixture();
      const created = await f.service.create(request({ mp4_support: 'audio-only' }));
      await f.processing.recordProbe({ asset_id: created.id, tracks: [HD_TRACKS[0]], non_standard_input_reasons: {}, input_info: [], recording_times: [] });
      await f.processing.markReady({ asset_id: created.id });
      f.events.length = 0;
      expect(await f.staticRenditions.plan({ asset_id: created.id, target: 'mp4_support' })).toMatchObject({ action: 'none' });
      expect(f.events.map((e) => [e.type, (e.data.static_renditions as { status: string }).status])).toEqual([
        ['video.asset.static_renditions.errored', 'errored'],
      ]);

      const errored = await f.service.create(request());
      await f.processing.markErrored({ asset_id: errored.id, errors: { type: 'invalid_input', messages: ['x'] } });
      expect((await rejection(f.staticRenditions.updateMp4Support({ asset_id: errored.id, mp4_support: 'standard' }))).code).toBe(
        ErrorCode.PRECONDITION_FAILED,
      );
      const api = await f.service.create(request({ static_renditions: [{ resolution: 'highest' }] }));
      expect((await rejection(f.staticRenditions.updateMp4Support({ asset_id: api.id, mp4_support: 'standard' }))).messages[0]).toMatch(
        /^mp4_support: the asset has static renditions of the Static Renditions API/,
      );
      expect((await rejection(f.staticRenditions.updateMp4Support({ asset_id: api.id, mp4_support: 'all' }))).code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect((await rejection(f.staticRenditions.updateMp4Support({ asset_id: 'nope', mp4_support: 'standard' }))).code).toBe(ErrorCode.NOT_FOUND);
    });
  });

  describe('the Static Renditions API', () => {
    it('creates renditions preparing (created events), skips one above the source, makes the others, deletes', async () => {
      const f = assetsFixture();
      const created = await f.service.create(request({ static_renditions: [{ resolution: 'highest', passthrough: 'h' }, { resolution: '1080p' }] }));
      const [highest, fullHd] = created.static_renditions!.files;
      expect(created.static_renditions!.status).toBe('disabled');
      expect(highest).toEqual({
        id: highest.id,
        name: 'highest.mp4',
        ext: 'mp4',
        type: 'standard',
        status: 'preparing',
        resolution: 'highest',
        passthrough: 'h',
      });
      expect(fullHd).toMatchObject({ name: '1080p.mp4', type: 'advanced', status: 'preparing', resolution: '1080p', resolution_tier: '1080p' });
      expect(f.events.map((e) => [e.type, e.object.type, e.object.id])).toEqual([
        ['video.asset.created', 'asset', created.id],
        ['video.asset.static_rendition.created', 'static_rendition', highest.id],
        ['video.asset.static_rendition.created', 'static_rendition', fullHd.id],
      ]);
      expect(f.events[1].data).toEqual({ ...highest, asset_id: created.id });

      await f.processing.recordProbe({
        asset_id: created.id,
        tracks: HD_TRACKS,
        resolution_tier: '720p',
        non_standard_input_reasons: {},
        input_info: [],
        recording_times: [],
      });
      await f.processing.markReady({ asset_id: created.id });
      f.events.length = 0;
      expect(await f.staticRenditions.plan({ asset_id: created.id, target: fullHd.id! })).toMatchObject({ action: 'none' });
      expect(f.events.map((e) => [e.type, e.data.status])).toEqual([['video.asset.static_rendition.skipped', 'skipped']]);
      expect(await f.staticRenditions.plan({ asset_id: created.id, target: highest.id! })).toEqual({
        action: 'make',
        reason: '',
        files: [{ name: 'highest.mp4', video: true, audio: true, short_side: 0 }],
      });
      await f.store.putBuffer(assetKeys.staticRendition(created.id, 'highest.mp4'), Buffer.alloc(4096));
      const after = await f.staticRenditions.record(made(created.id, highest.id!, 'highest.mp4'));
      expect(after.static_renditions!.files[0]).toEqual({
        ...highest,
        status: 'ready',
        width: 1280,
        height: 720,
        bitrate: 1_500_000,
        filesize: 4096,
        resolution_tier: '720p',
      });
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.static_rendition.skipped', 'video.asset.static_rendition.ready']);

      f.events.length = 0;
      await f.staticRenditions.delete({ asset_id: created.id, static_rendition_id: highest.id! });
      expect(f.events.map((e) => [e.type, e.data.status])).toEqual([['video.asset.static_rendition.deleted', 'ready']]);
      expect(await f.store.stat(assetKeys.staticRendition(created.id, 'highest.mp4'))).toBeUndefined();
      expect((await f.service.get(created.id)).static_renditions!.files.map((file) => file.id)).toEqual([fullHd.id]);
      // the transcoder's late report of a deleted rendition is refused (it then removes what it stored)
      expect((await rejection(f.staticRenditions.record(made(created.id, highest.id!, 'highest.mp4')))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(f.staticRenditions.delete({ asset_id: created.id, static_rendition_id: highest.id! }))).code).toBe(ErrorCode.NOT_FOUND);
    });

    it('POST adds one rendition (409 for a resolution it has, or while mp4_support is on); 400 for a bad resolution', async () => {
      const f = assetsFixture();
      const { id } = await readyAsset(f);
      f.events.length = 0;
      const file = await f.staticRenditions.create({ asset_id: id, resolution: 'audio-only' });
      expect(file).toEqual({
        id: file.id,
        name: 'audio.m4a',
        ext: 'm4a',
        type: 'standard',
        status: 'preparing',
        resolution: 'audio-only',
        resolution_tier: 'audio-only',
      });
      expect(f.events.map((e) => e.type)).toEqual(['video.asset.static_rendition.created']);
      expect((await rejection(f.staticRenditions.create({ asset_id: id, resolution: 'audio-only' }))).code).toBe(ErrorCode.ALREADY_EXISTS);
      expect((await rejection(f.staticRenditions.create({ asset_id: id, resolution: '4k' }))).messages).toEqual([
        'resolution: must be one of "highest", "audio-only", "2160p", "1440p", "1080p", "720p", "540p", "480p", "360p", "270p"',
      ]);
      const legacy = await readyAsset(f, { mp4_support: 'capped-1080p' });
      expect((await rejection(f.staticRenditions.create({ asset_id: legacy.id, resolution: 'highest' }))).code).toBe(ErrorCode.PRECONDITION_FAILED);
    });

    it('an asset that errors makes everything still preparing errored, each with its event', async () => {
      const f = assetsFixture();
      const created = await f.service.create(request({ static_renditions: [{ resolution: 'highest' }], master_access: 'temporary' }));
      f.events.length = 0;
      await f.processing.markErrored({ asset_id: created.id, errors: { type: 'invalid_input', messages: ['bad'] } });
      expect(f.events.map((e) => [e.type, e.data.status])).toEqual([
        ['video.asset.errored', 'errored'],
        ['video.asset.static_rendition.errored', 'errored'],
        ['video.asset.master.errored', 'errored'],
      ]);
      expect((await f.service.get(created.id)).master).toEqual({ status: 'errored' });
      expect((await f.staticRenditions.plan({ asset_id: created.id, target: created.static_renditions!.files[0].id! })).action).toBe('none');
    });
  });
});
