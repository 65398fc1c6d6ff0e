import { ViewExportScheduler } from './view-export-scheduler';
import { ViewExportsOptions } from './view-exports.options';
import { ViewExportsService } from './view-exports.service';

describe('ViewExportScheduler', () => {
  const options = { checkMs: 60_000 } as ViewExportsOptions;

  function fakeExports() {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const exports = {
      exportMissingDays: jest.fn(async () => {
        await gate;
        return ['2026-03-09'];
      }),
      deleteExpired: jest.fn(async () => ['2026-03-01']),
    };
    return { exports, release };
  }

  it('exports the missing days then deletes the expired ones, one pass at a time', async () => {
    const { exports, release } = fakeExports();
    const scheduler = new ViewExportScheduler(exports as unknown as ViewExportsService, options);
    const first = scheduler.runOnce(1000);
    const second = scheduler.runOnce(2000);
    expect(second).toBe(first);
    release();
    await first;
    expect(exports.exportMissingDays).toHaveBeenCalledTimes(1);
    expect(exports.exportMissingDays).toHaveBeenCalledWith(1000);
    expect(exports.deleteExpired).toHaveBeenCalledWith(1000);
  });

  it('survives a failing pass and runs again next time', async () => {
    const exports = {
      exportMissingDays: jest.fn().mockRejectedValueOnce(new Error('store down')).mockResolvedValue([]),
      deleteExpired: jest.fn(async () => []),
    };
    const scheduler = new ViewExportScheduler(exports as unknown as ViewExportsService, options);
    await scheduler.runOnce();
    expect(exports.deleteExpired).not.toHaveBeenCalled();
    await scheduler.runOnce();
    expect(exports.deleteExpired).toHaveBeenCalledTimes(1);
  });

  it('runs a pass at bootstrap and stops its timer at shutdown', async () => {
    jest.useFakeTimers();
    try {
      const exports = { exportMissingDays: jest.fn(async () => []), deleteExpired: jest.fn(async () => []) };
      const scheduler = new ViewExportScheduler(exports as unknown as ViewExportsService, options);
      scheduler.onApplicationBootstrap();
      expect(exports.exportMissingDays).toHaveBeenCalledTimes(1);
      await scheduler.onApplicationShutdown();
      await jest.advanceTimersByTimeAsync(5 * 60_000);
      expect(exports.exportMissingDays).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
