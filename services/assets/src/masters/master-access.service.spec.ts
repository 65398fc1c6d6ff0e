import { DomainError, ErrorCode } from '@platform/errors';
import { assets } from '@platform/proto';
import { assetKeys } from '@platform/storage';
import { assetsFixture } from '../testing/assets-fixture';
import { MasterAccessSweeper } from './master-access-sweeper';

const request = (fields: Partial<assets.CreateAssetRequest> = {}): assets.CreateAssetRequest => ({
  input: [{ url: 'https://media.example/video.mp4', generated_subtitles: [] }],
  playback_policy: ['public'],
  static_renditions: [],
  ...fields,
});

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

async function readyAsset(f: ReturnType<typeof assetsFixture>, fields: Partial<assets.CreateAssetRequest> = {}) {
  const created = await f.service.create(request(fields));
  await f.processing.recordProbe({
    asset_id: created.id,
    tracks: [{ id: '', type: 'video', max_width: 640, max_height: 360 }],
    non_standard_input_reasons: {},
    input_info: [],
    recording_times: [],
  });
  await f.processing.markReady({ asset_id: created.id });
  return created.id;
}

/** The master made by the transcoder: stored, then reported. Returns the token of its URL. */
async function makeMaster(f: ReturnType<typeof assetsFixture>, id: string): Promise<{ token: string; asset: assets.Asset }> {
  await f.store.putBuffer(assetKeys.master(id), Buffer.alloc(100));
  const asset = await f.masters.record({ asset_id: id, status: 'ready', error_message: '' });
  const token = /^https:\/\/stream\.test\/master\/([A-Za-z0-9_-]{43})\/master\.mp4$/.exec(asset.master!.url!)![1];
  return { token, asset };
}

describe('master access (assets service)', () => {
  it('temporary at create: preparing (its event), made once ingested, ready with a URL valid MASTER_ACCESS_SECONDS', async () => {
    const f = assetsFixture({ MASTER_ACCESS_SECONDS: '600' });
    const created = await f.service.create(request({ master_access: 'temporary' }));
    expect(created.master).toEqual({ status: 'preparing' });
    expect(f.events.map((e) => e.type)).toEqual(['video.asset.created', 'video.asset.master.preparing']);
    expect(await f.masters.plan(created.id)).toEqual({ action: 'wait', reason: 'the asset is not ingested yet' });
    await f.processing.recordProbe({
      asset_id: created.id,
      tracks: [{ id: '', type: 'audio' }],
      non_standard_input_reasons: {},
      input_info: [],
      recording_times: [],
    });
    await f.processing.markReady({ asset_id: created.id });
    expect(await f.masters.plan(created.id)).toEqual({ action: 'make', reason: '' });

    // reported ready before it is stored: refused
    expect((await rejection(f.masters.record({ asset_id: created.id, status: 'ready', error_message: '' }))).code).toBe(ErrorCode.PRECONDITION_FAILED);
    f.events.length = 0;
    const { token, asset } = await makeMaster(f, created.id);
    expect(asset.master).toEqual({ status: 'ready', url: `https://stream.test/master/${token}/master.mp4` });
    expect(f.events.map((e) => [e.type, (e.data.master as { status: string }).status])).toEqual([['video.asset.master.ready', 'ready']]);
    expect(await f.masters.lookup(token)).toEqual({ asset_id: created.id, expires_at: f.clock.at.getTime() / 1000 + 600 });
    expect((await f.masters.plan(created.id)).action).toBe('none');

    // the URL stops at the end of the window, whether or not the sweeper has run
    f.clock.at = new Date(f.clock.at.getTime() + 600_000);
    expect((await rejection(f.masters.lookup(token))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rejection(f.masters.lookup('not-a-token'))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rejection(f.masters.lookup(''))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('none removes the master at once: URL dead, master gone (master.deleted), file removed, late reports refused', async () => {
    const f = assetsFixture();
    const id = await readyAsset(f);
    f.events.length = 0;
    const put = await f.masters.update({ asset_id: id, master_access: 'temporary' });
    expect(put).toMatchObject({ master_access: 'temporary', master: { status: 'preparing' }, updated_at: f.clock.at.getTime() / 1000 });
    await f.masters.update({ asset_id: id, master_access: 'temporary' }); // asked again while preparing: nothing changes
    const { token } = await makeMaster(f, id);
    const none = await f.masters.update({ asset_id: id, master_access: 'none' });
    expect(none.master).toBeUndefined();
    expect(none.master_access).toBe('none');
    expect(f.events.map((e) => e.type)).toEqual(['video.asset.master.preparing', 'video.asset.master.ready', 'video.asset.master.deleted']);
    expect(f.events[2].data.master).toBeUndefined();
    expect((await rejection(f.masters.lookup(token))).code).toBe(ErrorCode.NOT_FOUND);
    expect(await f.store.stat(assetKeys.master(id))).toBeUndefined();
    expect((await rejection(f.masters.record({ asset_id: id, status: 'ready', error_message: '' }))).code).toBe(ErrorCode.PRECONDITION_FAILED);
    await f.masters.update({ asset_id: id, master_access: 'none' });
    expect(f.events).toHaveLength(3);
  });

  it('an errored master is made again when asked again; an errored asset is refused (409); a bad value is 400', async () => {
    const f = assetsFixture();
    const id = await readyAsset(f, { master_access: 'temporary' });
    f.events.length = 0;
    expect((await f.masters.record({ asset_id: id, status: 'errored', error_message: 'x' })).master).toEqual({ status: 'errored' });
    expect((await f.masters.update({ asset_id: id, master_access: 'temporary' })).master).toEqual({ status: 'preparing' });
    expect(f.events.map((e) => e.type)).toEqual(['video.asset.master.errored', 'video.asset.master.preparing']);

    const errored = await f.service.create(request());
    await f.processing.markErrored({ asset_id: errored.id, errors: { type: 'invalid_input', messages: ['x'] } });
    expect((await rejection(f.masters.update({ asset_id: errored.id, master_access: 'temporary' }))).code).toBe(ErrorCode.PRECONDITION_FAILED);
    expect((await rejection(f.masters.update({ asset_id: id, master_access: 'forever' }))).messages).toEqual([
      'master_access: must be one of "none", "temporary"',
    ]);
  });

  describe('the sweeper (clock injected)', () => {
    it('expires masters whose window has passed: master_access none, master gone (master.deleted), file removed', async () => {
      const f = assetsFixture({ MASTER_ACCESS_SECONDS: '60' });
      const early = await readyAsset(f, { master_access: 'temporary' });
      const { token } = await makeMaster(f, early);
      f.clock.at = new Date(f.clock.at.getTime() + 30_000);
      const later = await readyAsset(f, { master_access: 'temporary' });
      await makeMaster(f, later);
      const sweeper = new MasterAccessSweeper(f.assets, f.masters, f.config, f.clock);

      f.events.length = 0;
      expect(await sweeper.sweep()).toBe(0);
      f.clock.at = new Date(f.clock.at.getTime() + 30_000); // the first is 60 s old, the second 30 s
      expect(await sweeper.sweep()).toBe(1);
      expect(f.events.map((e) => [e.type, e.object.id, e.data.master_access])).toEqual([['video.asset.master.deleted', early, 'none']]);
      expect((await f.service.get(early)).master).toBeUndefined();
      expect((await f.service.get(later)).master?.status).toBe('ready');
      expect(await f.store.stat(assetKeys.master(early))).toBeUndefined();
      expect((await rejection(f.masters.lookup(token))).code).toBe(ErrorCode.NOT_FOUND);
      // an asset deleted meanwhile is skipped
      expect(await f.masters.expire('gone')).toBe(false);
    });

    it('sleeps until the soonest expiry, at most a fifth of the window (1 s to 60 s)', async () => {
      const f = assetsFixture({ MASTER_ACCESS_SECONDS: '30' });
      const sweeper = new MasterAccessSweeper(f.assets, f.masters, f.config, f.clock);
      expect(sweeper.intervalMs).toBe(6000);
      expect(await sweeper.nextDelayMs()).toBe(6000);
      const id = await readyAsset(f, { master_access: 'temporary' });
      await makeMaster(f, id);
      f.clock.at = new Date(f.clock.at.getTime() + 28_000);
      expect(await sweeper.nextDelayMs()).toBe(2050);
      expect(new MasterAccessSweeper(f.assets, f.masters, assetsFixture().config, f.clock).intervalMs).toBe(60_000);
      expect(new MasterAccessSweeper(f.assets, f.masters, assetsFixture({ MASTER_ACCESS_SECONDS: '2' }).config, f.clock).intervalMs).toBe(1000);
    });
  });
});
