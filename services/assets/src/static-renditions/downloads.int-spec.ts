import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { ErrorCode } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { assets } from '@platform/proto';
import { assetKeys, FsObjectStore } from '@platform/storage';
import { createPgliteDatabase, createTestDatabase, rejection } from '@platform/testing';
import { DataSource } from 'typeorm';
import { AssetRepository } from '../assets/asset.repository';
import { AssetsService } from '../assets/assets.service';
import { assetsDatabase } from '../database-options';
import { MasterAccessService } from '../masters/master-access.service';
import { MasterAccessSweeper } from '../masters/master-access-sweeper';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { AssetProcessingService } from '../processing/asset-processing.service';
import { AssetWarningRepository } from '../processing/asset-warning.repository';
import { DownloadChanges } from './download-changes';
import { StaticRenditionsService } from './static-renditions.service';

jest.setTimeout(60_000);

interface Backend {
  url: string;
  drop(): Promise<void>;
}

const backends: Array<[string, () => Promise<Backend>]> = [
  ['Postgres', () => createTestDatabase('assets_downloads')],
  ['PGlite (one shared session)', () => createPgliteDatabase()],
];

const HD: assets.Track[] = [
  { id: '', type: 'video', max_width: 1280, max_height: 720 },
  { id: '', type: 'audio', max_channels: 2 },
];

/** Static renditions and masters on real SQL: the jsonb files, the token index, the expiry queries, the outbox. */
describe.each(backends)('static renditions and masters on %s', (_name, start) => {
  let backend: Backend;
  let dataSource: DataSource;
  let dataDir: string;
  let store: FsObjectStore;
  let repository: AssetRepository;
  let service: AssetsService;
  let processing: AssetProcessingService;
  let renditions: StaticRenditionsService;
  let masters: MasterAccessService;
  const clock = {
    at: new Date(),
    now(): Date {
      return new Date(this.at);
    },
  };
  let config: PlatformConfig;

  const topics = async (key: string): Promise<string[]> =>
    (await dataSource.query<Array<{ topic: string }>>('SELECT "topic" FROM "assets"."outbox" WHERE "key" = $1 ORDER BY "id"', [key])).map((r) => r.topic);

  beforeAll(async () => {
    backend = await start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assets-downloads-'));
    config = {
      ...loadConfig({ DATA_DIR: dataDir, STREAM_BASE_URL: 'http://stream.test', MASTER_ACCESS_SECONDS: '60' }),
      databaseUrl: backend.url,
      databasePoolSize: 4,
    };
    dataSource = await openDatabase(config, assetsDatabase);
    const unitOfWork = new UnitOfWork(dataSource, assetsDatabase.schema, { nudge: () => undefined });
    store = new FsObjectStore(path.join(dataDir, 'objects'));
    repository = new AssetRepository(dataSource);
    const playbackIds = new PlaybackIdRepository(dataSource);
    service = new AssetsService(repository, playbackIds, unitOfWork, store);
    processing = new AssetProcessingService(repository, playbackIds, new AssetWarningRepository(), unitOfWork);
    const changes = new DownloadChanges(repository, playbackIds, unitOfWork, store);
    renditions = new StaticRenditionsService(changes, repository, playbackIds, store, clock);
    masters = new MasterAccessService(changes, repository, playbackIds, store, config, clock);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await backend?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function ready(fields: Partial<assets.CreateAssetRequest>): Promise<string> {
    const { id } = await service.create({
      input: [{ url: 'https://media.example/a.mp4', generated_subtitles: [] }],
      playback_policy: ['public'],
      static_renditions: [],
      ...fields,
    });
    await processing.recordProbe({ asset_id: id, tracks: HD, resolution_tier: '720p', non_standard_input_reasons: {}, input_info: [], recording_times: [] });
    await processing.markReady({ asset_id: id });
    return id;
  }

  it('adds the download columns (files as jsonb, an aggregate, the master) and the token and expiry indexes', async () => {
    const columns = await dataSource.query<Array<Record<string, string>>>(
      `SELECT "column_name", "data_type", "is_nullable" FROM information_schema.columns
        WHERE "table_schema" = 'assets' AND "table_name" = 'assets' AND "column_name" IN ('master_expires_at', 'master_status', 'master_token', 'master_url', 'static_renditions', 'static_renditions_status')
        ORDER BY "column_name"`,
    );
    expect(columns).toEqual([
      { column_name: 'master_expires_at', data_type: 'timestamp with time zone', is_nullable: 'YES' },
      { column_name: 'master_status', data_type: 'text', is_nullable: 'YES' },
      { column_name: 'master_token', data_type: 'text', is_nullable: 'YES' },
      { column_name: 'master_url', data_type: 'text', is_nullable: 'YES' },
      { column_name: 'static_renditions', data_type: 'jsonb', is_nullable: 'NO' },
      { column_name: 'static_renditions_status', data_type: 'text', is_nullable: 'YES' },
    ]);
    const indexes = await dataSource.query<Array<{ indexname: string }>>(
      `SELECT "indexname" FROM pg_indexes WHERE "schemaname" = 'assets' AND "indexname" IN ('assets_master_expires_at', 'assets_master_token') ORDER BY "indexname"`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual(['assets_master_expires_at', 'assets_master_token']);
  });

  it('keeps mp4_support files through concurrent reports (each under the row lock): none is lost, ready once', async () => {
    const id = await ready({ mp4_support: 'standard' });
    const names = ['low.mp4', 'medium.mp4', 'high.mp4'];
    for (const name of names) await store.putBuffer(assetKeys.staticRendition(id, name), Buffer.alloc(name.length * 100));
    await Promise.all(
      names.map((name) =>
        renditions.record({ asset_id: id, target: 'mp4_support', name, status: 'ready', width: 640, height: 360, bitrate: 800_000, error_message: '' }),
      ),
    );
    const asset = await service.get(id);
    expect(asset.static_renditions).toEqual({
      status: 'ready',
      files: names.map((name) => ({ name, ext: 'mp4', width: 640, height: 360, bitrate: 800_000, filesize: name.length * 100 })),
    });
    expect((await topics(id)).filter((t) => t.startsWith('video.asset.static_renditions.'))).toEqual([
      'video.asset.static_renditions.preparing.v1',
      'video.asset.static_renditions.ready.v1',
    ]);
    await renditions.updateMp4Support({ asset_id: id, mp4_support: 'none' });
    expect(await store.list(`assets/${id}/static/`)).toEqual([]);
    expect((await service.get(id)).static_renditions).toBeUndefined();
  });

  it('writes a rendition’s events keyed by its id and its state in the asset’s jsonb', async () => {
    const id = await ready({ static_renditions: [{ resolution: '1080p' }] });
    const file = await renditions.create({ asset_id: id, resolution: 'highest', passthrough: 'p' });
    const skippedId = (await service.get(id)).static_renditions!.files[0].id!;
    expect((await renditions.plan({ asset_id: id, target: skippedId })).action).toBe('none');
    expect(await topics(skippedId)).toEqual(['video.asset.static_rendition.created.v1', 'video.asset.static_rendition.skipped.v1']);
    await store.putBuffer(assetKeys.staticRendition(id, 'highest.mp4'), Buffer.alloc(777));
    await renditions.record({
      asset_id: id,
      target: file.id!,
      name: 'highest.mp4',
      status: 'ready',
      width: 1280,
      height: 720,
      bitrate: 2e6,
      error_message: '',
    });
    expect(await renditions.lookup({ asset_id: id, name: 'highest.mp4' })).toMatchObject({
      id: file.id,
      status: 'ready',
      filesize: 777,
      resolution_tier: '720p',
    });
    await renditions.delete({ asset_id: id, static_rendition_id: file.id! });
    expect(await topics(file.id!)).toEqual([
      'video.asset.static_rendition.created.v1',
      'video.asset.static_rendition.ready.v1',
      'video.asset.static_rendition.deleted.v1',
    ]);
    expect((await rejection(renditions.lookup({ asset_id: id, name: 'highest.mp4' }))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('finds a ready master by its token until it expires; the sweeper returns master_access to none', async () => {
    clock.at = new Date('2030-01-01T00:00:00Z');
    const id = await ready({ master_access: 'temporary' });
    await store.putBuffer(assetKeys.master(id), Buffer.alloc(10));
    const url = (await masters.record({ asset_id: id, status: 'ready', error_message: '' })).master!.url!;
    const token = url.split('/')[4];
    expect(url).toBe(`http://stream.test/master/${token}/master.mp4`);
    expect(await repository.findByMasterToken(token)).toMatchObject({ id, masterStatus: 'ready', masterExpiresAt: new Date('2030-01-01T00:01:00Z') });
    expect(await masters.lookup(token)).toEqual({ asset_id: id, expires_at: Date.parse('2030-01-01T00:01:00Z') / 1000 });
    expect(await repository.nextMasterExpiry()).toEqual(new Date('2030-01-01T00:01:00Z'));
    expect(await repository.findExpiredMasterIds(new Date('2030-01-01T00:00:59Z'), 10)).not.toContain(id);

    clock.at = new Date('2030-01-01T00:01:00Z');
    expect(await repository.findExpiredMasterIds(clock.at, 10)).toContain(id);
    expect((await rejection(masters.lookup(token))).code).toBe(ErrorCode.NOT_FOUND);
    const sweeper = new MasterAccessSweeper(repository, masters, config, clock);
    expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
    expect(await service.get(id)).toMatchObject({ master_access: 'none' });
    expect((await service.get(id)).master).toBeUndefined();
    expect(await repository.findByMasterToken(token)).toBeNull();
    expect(await store.stat(assetKeys.master(id))).toBeUndefined();
    expect((await topics(id)).filter((t) => t.startsWith('video.asset.master.'))).toEqual([
      'video.asset.master.preparing.v1',
      'video.asset.master.ready.v1',
      'video.asset.master.deleted.v1',
    ]);
  });
});
