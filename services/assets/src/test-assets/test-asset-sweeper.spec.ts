import { loadConfig } from '@platform/config';
import { AssetRepository } from '../assets/asset.repository';
import { Clock } from '../clock';
import { assetsFixture } from '../testing/assets-fixture';
import { SWEEP_BATCH, SWEEP_INTERVAL_MS, TestAssetSweeper } from './test-asset-sweeper';

const HOUR = 3600 * 1000;
const NOW = new Date(Date.UTC(2024, 5, 1, 12));

function setup(ttlSeconds = 24 * 3600) {
  const f = assetsFixture();
  const clock: Clock = { now: () => NOW };
  const config = { ...loadConfig({}), testAssetTtlSeconds: ttlSeconds };
  const sweeper = new TestAssetSweeper(f.assets as unknown as AssetRepository, f.service, config, clock);
  return { ...f, sweeper, clock };
}

const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('TestAssetSweeper', () => {
  it('deletes test assets older than the TTL like DELETE does (rows, playback ids, files, event), and nothing else', async () => {
    const f = setup();
    f.stored({ id: 'expired', test: true, createdAt: ago(25 * HOUR) }, ['public']);
    f.stored({ id: 'young', test: true, createdAt: ago(23 * HOUR) });
    f.stored({ id: 'real', test: false, createdAt: ago(100 * HOUR) });
    await f.store.putBuffer('assets/expired/hls/master.m3u8', '#EXTM3U');
    await f.store.putBuffer('assets/young/hls/master.m3u8', '#EXTM3U');

    expect(await f.sweeper.sweep()).toBe(1);

    expect([...f.assets.rows.keys()].sort()).toEqual(['real', 'young']);
    expect(f.playbackIds.rows).toEqual([]);
    expect([...f.store.objects.keys()]).toEqual(['assets/young/hls/master.m3u8']);
    expect(f.events).toEqual([
      {
        type: 'video.asset.deleted',
        object: { type: 'asset', id: 'expired' },
        data: expect.objectContaining({ id: 'expired', test: true, playback_ids: [{ id: 'expired-pb0', policy: 'public' }] }),
      },
    ]);
    expect(await f.sweeper.sweep()).toBe(0);
  });

  it('reads the TTL from the config and the time from its clock', async () => {
    const f = setup(60);
    f.stored({ id: 'a', test: true, createdAt: ago(61_000) });
    f.stored({ id: 'b', test: true, createdAt: ago(59_000) });
    expect(await f.sweeper.sweep()).toBe(1);
    expect([...f.assets.rows.keys()]).toEqual(['b']);
  });

  it('sweeps more than one batch in one run', async () => {
    const f = setup();
    for (let i = 0; i < SWEEP_BATCH + 5; i++) f.stored({ id: `t${i}`, test: true, createdAt: ago(48 * HOUR + i) });
    expect(await f.sweeper.sweep()).toBe(SWEEP_BATCH + 5);
    expect(f.assets.rows.size).toBe(0);
  });

  it('skips an asset someone else deleted first', async () => {
    const f = setup();
    f.stored({ id: 'raced', test: true, createdAt: ago(30 * HOUR) });
    f.stored({ id: 'next', test: true, createdAt: ago(29 * HOUR) });
    const findIds = f.assets.findTestAssetIdsCreatedBefore.bind(f.assets);
    jest.spyOn(f.assets, 'findTestAssetIdsCreatedBefore').mockImplementationOnce(async (cutoff, limit) => {
      const ids = await findIds(cutoff, limit);
      await f.service.delete('raced'); // a user (or another replica) wins the race
      return ids;
    });
    expect(await f.sweeper.sweep()).toBe(1);
    expect(f.assets.rows.size).toBe(0);
    expect(f.events.map((e) => [e.type, e.object.id])).toEqual([
      ['video.asset.deleted', 'raced'],
      ['video.asset.deleted', 'next'],
    ]);
  });

  it('checks each asset again before deleting it: one that is not an expired test asset stays', async () => {
    const f = setup();
    f.stored({ id: 'real', test: false, createdAt: ago(100 * HOUR) });
    f.stored({ id: 'young', test: true, createdAt: ago(HOUR) });
    jest.spyOn(f.assets, 'findTestAssetIdsCreatedBefore').mockResolvedValueOnce(['real', 'young']);
    expect(await f.sweeper.sweep()).toBe(0);
    expect([...f.assets.rows.keys()].sort()).toEqual(['real', 'young']);
    expect(f.events).toEqual([]);
  });

  it('stops when a full batch yields nothing to delete, instead of reading it again forever', async () => {
    const f = setup();
    const ids = Array.from({ length: SWEEP_BATCH }, (_, i) => `x${i}`);
    const find = jest.spyOn(f.assets, 'findTestAssetIdsCreatedBefore').mockResolvedValue(ids);
    expect(await f.sweeper.sweep()).toBe(0);
    expect(find).toHaveBeenCalledTimes(1);
  });

  it('runs every minute on an unref’d timer, one sweep at a time, and stops on module destroy', async () => {
    jest.useFakeTimers();
    try {
      const f = setup();
      const sweep = jest.spyOn(f.sweeper, 'sweep');
      f.sweeper.onModuleInit();
      expect(jest.getTimerCount()).toBe(1);
      jest.advanceTimersByTime(SWEEP_INTERVAL_MS - 1);
      expect(sweep).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(sweep).toHaveBeenCalledTimes(1);
      f.sweeper.tick(); // still running: no second sweep
      expect(sweep).toHaveBeenCalledTimes(1);
      await f.sweeper.onModuleDestroy();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not keep the process alive', () => {
    const f = setup();
    const unref = jest.fn();
    const spy = jest.spyOn(global, 'setInterval').mockReturnValue({ unref } as unknown as NodeJS.Timeout);
    try {
      f.sweeper.onModuleInit();
      expect(spy).toHaveBeenCalledWith(expect.any(Function), SWEEP_INTERVAL_MS);
      expect(unref).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
