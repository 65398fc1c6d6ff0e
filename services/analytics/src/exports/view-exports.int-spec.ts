import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Module } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { PLATFORM_CONFIG, loadConfig } from '@platform/config';
import { FsObjectStore, OBJECT_STORE } from '@platform/storage';
import { tamperedAt } from '@platform/testing';
import { ANALYTICS_STORE } from '../clickhouse/analytics-store.port';
import { ChdbStore } from '../clickhouse/chdb-store';
import { runStoreMigrations } from '../clickhouse/store-migrations';
import { VIEW_MIGRATIONS } from '../views/views.migrations';
import { exportColumns } from './export-columns';
import { exportDownloads } from './export-downloads';
import { ExportUrlSigner } from './export-url-signer';
import { readExport } from './testing/read-export';
import { ViewExportsModule } from './view-exports.module';
import { ViewExportsService } from './view-exports.service';

jest.setTimeout(60_000);

// libchdb binds one data directory per process: every test here uses this one.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'view-exports-'));
const day = '2026-03-09';
const now = Date.parse('2026-03-10T12:00:00Z');

const views = [
  { view_id: 'v-late', version: 3, view_start: '2026-03-09 23:00:00.000', view_end: '2026-03-09 23:59:59.999', watch_time: 1000, player_autoplay: true },
  { view_id: 'v-first', version: 5, view_start: '2026-03-08 23:50:00.000', view_end: '2026-03-09 00:00:00.000', video_title: 'Ad, "break"\nlong', asn: 64512 },
  { view_id: 'v-first', version: 1, view_start: '2026-03-08 23:50:00.000', view_end: null, video_title: 'superseded' },
  { view_id: 'v-open', version: 2, view_start: '2026-03-09 10:00:00.000', view_end: null },
  { view_id: 'v-prev', version: 1, view_start: '2026-03-08 10:00:00.000', view_end: '2026-03-08 23:59:59.999' },
  { view_id: 'v-next', version: 1, view_start: '2026-03-09 23:59:00.000', view_end: '2026-03-10 00:00:00.000' },
  { view_id: 'v-mid', version: 1, view_start: '2026-03-09 11:00:00.000', view_end: '2026-03-09 12:00:00.000', buffering_rate: 0.25 },
];

describe('view exports on chDB and the filesystem object store', () => {
  let store: ChdbStore;
  let app: TestingModule;
  let service: ViewExportsService;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    store = ChdbStore.openAt(path.join(dataDir, 'clickhouse'));
    await runStoreMigrations(store, VIEW_MIGRATIONS);
    await store.insert('views', views);
    const config = { ...loadConfig({ DATA_DIR: dataDir, COLLECTOR_BASE_URL: 'http://placeholder' }) };
    @Module({
      providers: [
        { provide: PLATFORM_CONFIG, useValue: config },
        { provide: ANALYTICS_STORE, useValue: store },
        { provide: OBJECT_STORE, useValue: new FsObjectStore(path.join(dataDir, 'objects')) },
      ],
      exports: [PLATFORM_CONFIG, ANALYTICS_STORE, OBJECT_STORE],
    })
    class Deps {}
    app = await Test.createTestingModule({ imports: [{ module: Deps, global: true }, ViewExportsModule.forRoot({ scheduler: false, pageSize: 2 })] }).compile();
    service = app.get(ViewExportsService);
    const handler = exportDownloads(service, () => now);
    server = http.createServer((req, res) => {
      void handler(req, res).then((done) => done || res.writeHead(418).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await app?.close();
    await store?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exports the closed views that ended on the day (latest version of each), every column, in view_end order', async () => {
    expect(await service.exportNow(day)).toEqual({ key: `analytics/exports/views/${day}/v1.csv.gz`, views: 3 });
    const stored = fs.readFileSync(path.join(dataDir, 'objects', 'analytics', 'exports', 'views', day, 'v1.csv.gz'));
    const { header, rows } = readExport(stored);
    expect(header).toEqual(exportColumns());
    expect(rows.map((r) => r.view_id)).toEqual(['v-first', 'v-mid', 'v-late']);
    expect(rows[0]).toMatchObject({ view_end: '2026-03-09 00:00:00.000', video_title: 'Ad, "break"\nlong', asn: '64512', watch_time: '' });
    expect(rows[1].buffering_rate).toBe('0.25');
    expect(rows[2]).toMatchObject({ view_end: '2026-03-09 23:59:59.999', watch_time: '1000', player_autoplay: 'true' });
  });

  it('serves the listed URL as a gzip download, HEAD too', async () => {
    const [listed] = await service.listExportDays(now);
    expect(listed.export_date).toBe(day);
    const url = new URL(listed.files[0].path);
    expect(url.origin).toBe('http://placeholder');
    const local = `${base}${url.pathname}${url.search}`;

    const res = await fetch(local);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="views-${day}-v1.csv.gz"`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(readExport(body).rows).toHaveLength(3);
    expect(Number(res.headers.get('content-length'))).toBe(body.length);

    const head = await fetch(local, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(body.length));
  });

  it('answers 403 to an expired or tampered URL, 404 to an unknown file, and leaves other paths to the server', async () => {
    const signer = app.get(ExportUrlSigner);
    const pathOf = (u: string) => {
      const parsed = new URL(u);
      return `${base}${parsed.pathname}${parsed.search}`;
    };
    const expired = pathOf(signer.sign(`/exports/views/${day}/v1.csv.gz`, now - 2 * 3600_000));
    expect((await fetch(expired)).status).toBe(403);
    expect(await (await fetch(expired)).text()).toMatch(/expired/);

    const valid = pathOf(signer.sign(`/exports/views/${day}/v1.csv.gz`, now));
    const tampered = valid.replace(/signature=([^&]+)/, (_, s: string) => `signature=${tamperedAt(s, 0)}`);
    expect((await fetch(tampered)).status).toBe(403);
    expect((await fetch(valid.replace(day, '2026-03-08'))).status).toBe(403);
    expect((await fetch(`${base}/exports/views/${day}/v1.csv.gz`)).status).toBe(403);

    expect((await fetch(pathOf(signer.sign('/exports/views/2026-03-01/v1.csv.gz', now)))).status).toBe(404);
    expect((await fetch(pathOf(signer.sign(`/exports/views/${day}/passwd`, now)))).status).toBe(404);
    expect((await fetch(`${base}/exports/views/a/b/c`)).status).toBe(404);
    expect((await fetch(valid, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base}/`)).status).toBe(418);
  });

  it('keeps the signing key under DATA_DIR/secrets when EXPORT_URL_SECRET is not set', () => {
    expect(fs.statSync(path.join(dataDir, 'secrets', 'export-url.key')).mode & 0o777).toBe(0o600);
  });
});
