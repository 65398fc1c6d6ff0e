import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsObjectStore } from '@platform/storage';
import { exportColumns } from './export-columns';
import { ExportUrlSigner } from './export-url-signer';
import { FakeView, PagingViewsStore } from './testing/paging-views-store';
import { readExport } from './testing/read-export';
import { ViewExportsOptions } from './view-exports.options';
import { ViewExportsService } from './view-exports.service';

const now = Date.parse('2026-03-10T12:00:00Z');

function view(id: string, viewEnd: string | null, extra: Record<string, unknown> = {}): FakeView {
  return { view_id: id, view_start: '2026-03-01 00:00:00.000', view_end: viewEnd, video_title: `title ${id}`, ...extra };
}

describe('ViewExportsService', () => {
  let root: string;
  let objects: FsObjectStore;
  let options: ViewExportsOptions;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'view-exports-'));
    objects = new FsObjectStore(path.join(root, 'objects'));
    options = {
      baseUrl: 'http://localhost:8084',
      urlSeconds: 3600,
      retentionDays: 7,
      checkMs: 60_000,
      includeToday: false,
      settleMs: 0,
      pageSize: 2,
      workDir: path.join(root, 'tmp'),
    };
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const serviceOn = (store: PagingViewsStore) =>
    new ViewExportsService(store, objects, options, new ExportUrlSigner(Buffer.alloc(32, 7), options.baseUrl, 3600));

  it('exports the views that ended on the UTC day, paged, in view_end order, header first', async () => {
    const store = new PagingViewsStore([
      view('e', '2026-03-09 23:59:59.999'),
      view('before', '2026-03-08 23:59:59.999'),
      view('b', '2026-03-09 00:00:00.000', { video_title: 'quoted "title", with comma' }),
      view('a', '2026-03-09 00:00:00.000'),
      view('open', null),
      view('c', '2026-03-09 12:00:00.000'),
      view('after', '2026-03-10 00:00:00.000'),
    ]);
    const result = await serviceOn(store).exportDay('2026-03-09');
    expect(result).toEqual({ key: 'analytics/exports/views/2026-03-09/v1.csv.gz', views: 4 });
    expect(store.queries).toBe(3);
    const { header, rows } = readExport(await objects.getBuffer(result.key));
    expect(header).toEqual(exportColumns());
    expect(header).not.toContain('version');
    expect(rows.map((r) => r.view_id)).toEqual(['a', 'b', 'c', 'e']);
    expect(rows[1].video_title).toBe('quoted "title", with comma');
    expect(rows[0].viewer_user_id).toBe('');
    expect(fs.readdirSync(options.workDir)).toEqual([]);
  });

  it('replaces a day exported again', async () => {
    const store = new PagingViewsStore([view('a', '2026-03-09 01:00:00.000')]);
    const service = serviceOn(store);
    await service.exportDay('2026-03-09');
    store.views.push(view('b', '2026-03-09 02:00:00.000'));
    await service.exportDay('2026-03-09');
    expect(readExport(await objects.getBuffer('analytics/exports/views/2026-03-09/v1.csv.gz')).rows).toHaveLength(2);
  });

  it('with includeToday, also rewrites the current day so far at every check', async () => {
    options.includeToday = true;
    const service = serviceOn(new PagingViewsStore([view('today', '2026-03-10 09:00:00.000')]));
    const today = '2026-03-10';
    expect((await service.exportMissingDays(now)).slice(-1)).toEqual([today]);
    expect(await service.exportMissingDays(now)).toEqual([today]);
    expect(readExport(await objects.getBuffer(`analytics/exports/views/${today}/v1.csv.gz`)).rows.map((r) => r.view_id)).toEqual(['today']);
  });

  it('exports the missing retained days, writes a header-only file for a day without views, and lists them newest first', async () => {
    const service = serviceOn(new PagingViewsStore([view('a', '2026-03-05 10:00:00.000')]));
    await service.exportDay('2026-03-07');
    expect(await service.exportMissingDays(now)).toEqual(['2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-08', '2026-03-09']);
    expect(await service.exportMissingDays(now)).toEqual([]);
    expect(readExport(await objects.getBuffer('analytics/exports/views/2026-03-04/v1.csv.gz')).rows).toEqual([]);

    const days = await service.listExportDays(now);
    expect(days.map((d) => d.export_date)).toEqual(['2026-03-09', '2026-03-08', '2026-03-07', '2026-03-06', '2026-03-05', '2026-03-04', '2026-03-03']);
    const url = `http://localhost:8084/exports/views/2026-03-09/v1.csv.gz?expires=${now / 1000 + 3600}&signature=`;
    expect(days[0].files).toEqual([{ version: 1, type: 'csv', path: expect.stringMatching(/signature=[\w-]{43}$/) as string }]);
    expect(days[0].files[0].path.startsWith(url)).toBe(true);
  });

  it('deletes the days past retention and stops listing them at once', async () => {
    const service = serviceOn(new PagingViewsStore([]));
    for (const day of ['2026-03-01', '2026-03-02', '2026-03-03']) await service.exportDay(day);
    expect((await service.listExportDays(now)).map((d) => d.export_date)).toEqual(['2026-03-03']);
    expect(await service.deleteExpired(now)).toEqual(['2026-03-01', '2026-03-02']);
    expect([...(await service.storedExports()).keys()]).toEqual(['2026-03-03']);
    expect(await service.deleteExpired(now)).toEqual([]);
  });

  it('finds a download only for a stored export file name', async () => {
    const service = serviceOn(new PagingViewsStore([]));
    await service.exportDay('2026-03-09');
    const download = await service.findDownload('2026-03-09', 'v1.csv.gz');
    expect(download).toMatchObject({ fileName: 'views-2026-03-09-v1.csv.gz' });
    expect(download?.size).toBeGreaterThan(0);
    expect(await service.findDownload('2026-03-08', 'v1.csv.gz')).toBeUndefined();
    expect(await service.findDownload('2026-03-09', 'v2.csv.gz')).toBeUndefined();
    expect(await service.findDownload('2026-03-09', '../v1.csv.gz')).toBeUndefined();
    expect(await service.findDownload('..', 'v1.csv.gz')).toBeUndefined();
  });
});
