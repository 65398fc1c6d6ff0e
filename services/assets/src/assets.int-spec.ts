import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toAsset } from '@platform/api-shapes';
import { loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { decodeMessages, ErrorCode, GrpcStatus } from '@platform/errors';
import { closeEventBus, UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { FsObjectStore } from '@platform/storage';
import { createTestDatabase, freePort, grpcError, grpcTestClient, rejection } from '@platform/testing';
import { DataSource, MigrationInterface } from 'typeorm';
import { AssetRepository } from './assets/asset.repository';
import { AssetsService } from './assets/assets.service';
import { assetsDatabase } from './database-options';
import { bootstrap } from './main';
import { PlaybackIdRepository } from './playback-ids/playback-id.repository';
import { PlaybackIdsService } from './playback-ids/playback-ids.service';
import { AssetProcessingService } from './processing/asset-processing.service';
import { AssetWarningRepository } from './processing/asset-warning.repository';
import { TestAssetSweeper } from './test-assets/test-asset-sweeper';
import { TrackProcessingService } from './tracks/track-processing.service';
import { TracksService } from './tracks/tracks.service';

jest.setTimeout(60_000);

interface OutboxRow {
  topic: string;
  key: string;
  payload: { type: string; object: { type: string; id: string }; data: Record<string, unknown> };
}

const URL = 'https://media.example/video.mp4';

/** The assets service against a real Postgres (a database of its own) and a filesystem object store. */
describe('assets against Postgres', () => {
  let database: { url: string; drop(): Promise<void> };
  let config: PlatformConfig;
  let dataSource: DataSource;
  let dataDir: string;
  let store: FsObjectStore;
  let assets: AssetRepository;
  let service: AssetsService;
  let playback: PlaybackIdsService;
  let processing: AssetProcessingService;
  let tracks: TracksService;
  let trackProcessing: TrackProcessingService;

  const outbox = async (key: string): Promise<OutboxRow[]> =>
    await dataSource.query<OutboxRow[]>('SELECT "topic", "key", "payload" FROM "assets"."outbox" WHERE "key" = $1 ORDER BY "id"', [key]);

  beforeAll(async () => {
    database = await createTestDatabase('assets');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assets-int-'));
    config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error' }), databaseUrl: database.url, databasePoolSize: 4 };
    dataSource = await openDatabase(config, assetsDatabase);
    const unitOfWork = new UnitOfWork(dataSource, assetsDatabase.schema, { nudge: () => undefined });
    store = new FsObjectStore(path.join(dataDir, 'objects'));
    assets = new AssetRepository(dataSource);
    const playbackIds = new PlaybackIdRepository(dataSource);
    service = new AssetsService(assets, playbackIds, unitOfWork, store);
    playback = new PlaybackIdsService(assets, playbackIds, unitOfWork);
    processing = new AssetProcessingService(assets, playbackIds, new AssetWarningRepository(), unitOfWork);
    tracks = new TracksService(assets, playbackIds, unitOfWork, store, { now: () => new Date() });
    trackProcessing = new TrackProcessingService(assets, playbackIds, unitOfWork);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('migrations', () => {
    it('apply again without error or duplicates, and make the tables of the README', async () => {
      const second = await openDatabase(config, assetsDatabase);
      try {
        expect(await second.showMigrations()).toBe(false);
        const runner = second.createQueryRunner();
        try {
          for (const Migration of assetsDatabase.migrations as Array<new () => MigrationInterface>) await new Migration().up(runner);
        } finally {
          await runner.release();
        }
      } finally {
        await second.destroy();
      }
      const tables = await dataSource.query<Array<{ table_name: string }>>(
        `SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = 'assets' ORDER BY "table_name"`,
      );
      expect(tables.map((t) => t.table_name)).toEqual(['asset_warnings', 'assets', 'migrations', 'outbox', 'playback_ids', 'processed_events']);
      const columns = await dataSource.query<Array<Record<string, string>>>(
        `SELECT "column_name", "data_type", "is_nullable" FROM information_schema.columns
          WHERE "table_schema" = 'assets' AND "table_name" = 'assets'
            AND "column_name" IN ('tracks', 'input_info', 'errors', 'updated_at', 'duration', 'inputs', 'thumbnail_time')
          ORDER BY "column_name"`,
      );
      expect(columns).toEqual([
        { column_name: 'duration', data_type: 'double precision', is_nullable: 'YES' },
        { column_name: 'errors', data_type: 'jsonb', is_nullable: 'YES' },
        { column_name: 'input_info', data_type: 'jsonb', is_nullable: 'YES' },
        { column_name: 'inputs', data_type: 'jsonb', is_nullable: 'NO' },
        { column_name: 'thumbnail_time', data_type: 'double precision', is_nullable: 'YES' },
        { column_name: 'tracks', data_type: 'jsonb', is_nullable: 'NO' },
        { column_name: 'updated_at', data_type: 'timestamp with time zone', is_nullable: 'YES' },
      ]);
    });
  });

  it('runs an asset’s whole life, each change with its outbox rows, and deletes its rows and files', async () => {
    const created = await service.create({
      input: [{ url: URL, generated_subtitles: [] }],
      static_renditions: [],
      playback_policy: ['public', 'signed'],
      passthrough: 'pt',
    });
    expect(created).toMatchObject({ status: 'preparing', passthrough: 'pt', encoding_tier: 'smart', video_quality: 'plus', ingest_type: 'on_demand_url' });
    expect(created.updated_at).toBeUndefined();
    expect(await service.get(created.id)).toEqual(created);
    const [publicId, signedId] = created.playback_ids;
    expect([publicId.policy, signedId.policy]).toEqual(['public', 'signed']);

    const input_info = [
      {
        settings: { url: URL, generated_subtitles: [] },
        file: {
          container_format: 'mov,mp4,m4a,3gp,3g2,mj2',
          tracks: [{ type: 'video', width: 1920, height: 1080, frame_rate: 29.97, encoding: 'h264', duration: 12.345 }],
        },
      },
    ];
    const probe = {
      asset_id: created.id,
      duration: 12.345,
      max_stored_resolution: 'FHD',
      resolution_tier: '1080p',
      max_stored_frame_rate: 29.97,
      aspect_ratio: '16:9',
      tracks: [
        { id: '', type: 'video', max_width: 1920, max_height: 1080, max_frame_rate: 29.97 },
        { id: '', type: 'audio', max_channels: 2, primary: true },
      ],
      non_standard_input_reasons: { audio_codec: 'mp3' },
      input_info,
      recording_times: [],
    };
    const probed = await processing.recordProbe(probe);
    expect(probed).toMatchObject({ duration: 12.345, max_stored_frame_rate: 29.97, non_standard_input_reasons: { audio_codec: 'mp3' } });
    expect(await service.getInputInfo(created.id)).toEqual({ items: input_info });
    // a redone job records the same probe again: same track ids, no new events
    expect(await processing.recordProbe(probe)).toEqual(probed);

    const ready = await processing.markReady({ asset_id: created.id });
    expect(ready.status).toBe('ready');
    expect(await playback.lookup(signedId.id)).toEqual({
      id: signedId.id,
      policy: 'signed',
      object: { type: 'asset', id: created.id },
      status: 'ready',
      renditions: [],
      duration: 12.345,
    });

    const updated = await service.update({ id: created.id, passthrough: '' });
    expect(updated.passthrough).toBeUndefined();
    expect(updated.updated_at).toBeGreaterThanOrEqual(created.created_at);
    const added = await playback.create({ asset_id: created.id, policy: 'public' });
    expect((await service.get(created.id)).playback_ids).toEqual([publicId, signedId, added]);
    await playback.delete({ asset_id: created.id, playback_id: publicId.id });
    expect((await rejection(playback.lookup(publicId.id))).code).toBe(ErrorCode.NOT_FOUND);
    expect(await playback.get({ asset_id: created.id, playback_id: added.id })).toEqual(added);

    await store.putBuffer(`assets/${created.id}/hls/master.m3u8`, '#EXTM3U\n');
    await store.putBuffer(`assets/${created.id}/hls/source/segment_000.ts`, Buffer.alloc(188));
    await service.delete(created.id);
    expect((await rejection(service.get(created.id))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rejection(playback.lookup(signedId.id))).code).toBe(ErrorCode.NOT_FOUND);
    expect(await store.list(`assets/${created.id}/`)).toEqual([]);
    expect(await dataSource.query('SELECT "id" FROM "assets"."playback_ids" WHERE "asset_id" = $1', [created.id])).toEqual([]);

    const assetEvents = await outbox(created.id);
    expect(assetEvents.map((e) => e.topic)).toEqual([
      'video.asset.created.v1',
      'video.asset.non_standard_input_detected.v1',
      'video.asset.ready.v1',
      'video.asset.updated.v1',
      'video.asset.updated.v1',
      'video.asset.updated.v1',
      'video.asset.deleted.v1',
    ]);
    expect(assetEvents[0].payload.data).toEqual({
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
      playback_ids: [publicId, signedId],
      passthrough: 'pt',
    });
    expect(assetEvents[2].payload.data).toMatchObject({ status: 'ready', duration: 12.345, tracks: probed.tracks, passthrough: 'pt' });
    expect(assetEvents[6].payload.data).toMatchObject({ id: created.id, status: 'ready', playback_ids: [signedId, added] });
    const trackEvents = await Promise.all(probed.tracks.map((t) => outbox(t.id)));
    expect(trackEvents.map((rows) => rows.map((r) => r.topic))).toEqual([
      ['video.asset.track.created.v1', 'video.asset.track.ready.v1'],
      ['video.asset.track.created.v1', 'video.asset.track.ready.v1'],
    ]);
  });

  it('stores thumbnail_time in its column, refuses one beyond the known duration, unsets it, each change with its outbox row', async () => {
    const created = await service.create({ input: [{ url: URL, generated_subtitles: [] }], static_renditions: [], playback_policy: ['public'] });
    const playbackId = created.playback_ids[0].id;
    const column = async () =>
      (await dataSource.query<Array<{ thumbnail_time: number | null }>>('SELECT "thumbnail_time" FROM "assets"."assets" WHERE "id" = $1', [created.id]))[0]
        .thumbnail_time;
    expect(await column()).toBeNull();
    expect(await playback.lookup(playbackId)).not.toHaveProperty('thumbnail_time');

    // while the duration is unknown, any value up to 12 hours is stored as given
    expect((await service.update({ id: created.id, thumbnail_time: 43200 })).thumbnail_time).toBe(43200);
    expect(await column()).toBe(43200);
    const preparing = await playback.lookup(playbackId);
    expect(preparing).toMatchObject({ status: 'preparing', thumbnail_time: 43200 });
    expect(preparing).not.toHaveProperty('duration');

    await processing.recordProbe({ asset_id: created.id, duration: 6.006, tracks: [], non_standard_input_reasons: {}, input_info: [], recording_times: [] });
    await processing.markReady({ asset_id: created.id });
    // kept as given once the duration is known (the image host clamps it)
    expect(await playback.lookup(playbackId)).toMatchObject({ status: 'ready', thumbnail_time: 43200, duration: 6.006 });

    const beyond = await rejection(service.update({ id: created.id, passthrough: 'not written', thumbnail_time: 6.5 }));
    expect([beyond.code, beyond.messages]).toEqual([ErrorCode.INVALID_PARAMETERS, ["thumbnail_time: must be within the asset's duration (6.006 s)"]]);
    expect(await column()).toBe(43200);
    expect((await service.get(created.id)).passthrough).toBeUndefined();

    const set = await service.update({ id: created.id, thumbnail_time: 2.5 });
    expect(set.thumbnail_time).toBe(2.5);
    expect(await column()).toBe(2.5);
    expect(await service.get(created.id)).toEqual(set);
    expect((await service.list({ limit: 100, page: 1 })).items.find((a) => a.id === created.id)!.thumbnail_time).toBe(2.5);
    expect(await playback.lookup(playbackId)).toEqual({
      id: playbackId,
      policy: 'public',
      object: { type: 'asset', id: created.id },
      status: 'ready',
      renditions: [],
      thumbnail_time: 2.5,
      duration: 6.006,
    });

    await service.deleteThumbnailTime(created.id);
    expect(await column()).toBeNull();
    expect((await service.get(created.id)).thumbnail_time).toBeUndefined();
    expect(await playback.lookup(playbackId)).not.toHaveProperty('thumbnail_time');
    await service.deleteThumbnailTime(created.id); // none set: a no-op, no event

    const updates = (await outbox(created.id)).filter((e) => e.topic === 'video.asset.updated.v1').map((e) => e.payload.data);
    expect(updates.map((data) => data.thumbnail_time)).toEqual([43200, 2.5, undefined]);
    expect(updates[2]).not.toHaveProperty('thumbnail_time');
    expect(updates[1]).toEqual(toAsset(set));

    await service.delete(created.id);
    expect((await rejection(service.deleteThumbnailTime(created.id))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('stores a clip’s source and cut (a live recording’s end from its stored playlist) and hands them to the transcoder', async () => {
    const source = await service.create({ input: [{ url: URL, generated_subtitles: [] }], static_renditions: [], playback_policy: [] });
    await processing.recordProbe({ asset_id: source.id, duration: 30, tracks: [], non_standard_input_reasons: {}, input_info: [], recording_times: [] });
    await processing.markReady({ asset_id: source.id });
    const clip = await service.create({
      input: [{ url: `mux://assets/${source.id}`, start_time: 3.25, generated_subtitles: [] }],
      static_renditions: [],
      playback_policy: ['public'],
    });
    expect(await service.get(clip.id)).toMatchObject({ ingest_type: 'on_demand_clip', source_asset_id: source.id });
    expect((await processing.getIngestSpec(clip.id)).clip).toEqual({ source_asset_id: source.id, start_time: 3.25, end_time: 30 });
    const [row] = await dataSource.query<Array<Record<string, unknown>>>(
      'SELECT "source_asset_id", "clip_start_time", "clip_end_time", "ingest_type" FROM "assets"."assets" WHERE "id" = $1',
      [clip.id],
    );
    expect(row).toEqual({ source_asset_id: source.id, clip_start_time: 3.25, clip_end_time: 30, ingest_type: 'on_demand_clip' });
    expect((await outbox(clip.id))[0].payload).toMatchObject({ type: 'video.asset.created', data: { source_asset_id: source.id } });

    const recording = await service.create({ input: [], static_renditions: [], playback_policy: [], ingest_type: 'live_rtmp', live_stream_id: 'ls-clip' });
    await store.putBuffer(`assets/${recording.id}/hls/master.m3u8`, '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlive/index.m3u8\n');
    await store.putBuffer(`assets/${recording.id}/hls/live/index.m3u8`, '#EXTM3U\n#EXTINF:2.000000,\na.ts\n#EXTINF:2.500000,\nb.ts\n');
    const live = await service.create({
      input: [{ url: `svc://assets/${recording.id}`, start_time: 1, generated_subtitles: [] }],
      static_renditions: [],
      playback_policy: [],
    });
    expect((await processing.getIngestSpec(live.id)).clip).toEqual({ source_asset_id: recording.id, start_time: 1, end_time: 4.5 });
  });

  it('lists newest first with stable pages, its playback ids per asset, and filters by owner', async () => {
    const base = Date.now() + 60_000; // after every other asset of this file
    const ids = [newId(), newId(), newId()];
    const liveStreamId = newId();
    await dataSource.transaction(async (manager) => {
      for (const [i, id] of ids.entries()) {
        await manager.query(
          `INSERT INTO "assets"."assets" ("id", "status", "inputs", "max_resolution_tier", "encoding_tier", "video_quality", "mp4_support", "master_access",
             "normalize_audio", "test", "ingest_type", "live_stream_id", "created_at")
           VALUES ($1, 'ready', '[]', '1080p', 'smart', 'plus', 'none', 'none', false, false, 'live_rtmp', $2, $3)`,
          [id, i < 2 ? liveStreamId : null, new Date(base)],
        );
      }
    });
    await playback.create({ asset_id: ids[0], policy: 'public' });
    // same created_at: the id breaks the tie
    const newest = [...ids].sort().reverse();
    expect((await service.list({ limit: 3, page: 1 })).items.map((a) => a.id)).toEqual(newest);
    expect((await service.list({ limit: 1, page: 2 })).items.map((a) => a.id)).toEqual([newest[1]]);
    const byStream = await service.list({ limit: 25, page: 1, live_stream_id: liveStreamId });
    expect(byStream.items.map((a) => a.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect(byStream.items.find((a) => a.id === ids[0])!.playback_ids).toHaveLength(1);
    expect(byStream.items.find((a) => a.id === ids[1])!.playback_ids).toEqual([]);
    expect((await service.list({ limit: 25, page: 1, upload_id: 'none' })).items).toEqual([]);
  });

  it('lets one of a concurrent MarkReady and MarkErrored win, the other failing its precondition', async () => {
    const created = await service.create({ input: [{ url: URL, generated_subtitles: [] }], static_renditions: [], playback_policy: [] });
    const outcomes = await Promise.allSettled([
      processing.markReady({ asset_id: created.id }),
      processing.markErrored({ asset_id: created.id, errors: { type: 'invalid_input', messages: ['x'] } }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failed = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason.code).toBe(ErrorCode.PRECONDITION_FAILED);
    const topics = (await outbox(created.id)).map((e) => e.topic);
    expect(topics.filter((t) => t === 'video.asset.ready.v1' || t === 'video.asset.errored.v1')).toHaveLength(1);
  });

  it('sends a warning of a ready asset once per type, keeps its status, and forgets it with the asset', async () => {
    const created = await service.create({
      input: [{ url: URL, generated_subtitles: [] }],
      static_renditions: [],
      playback_policy: ['public'],
      passthrough: 'pt',
    });
    await processing.markReady({ asset_id: created.id });
    const warning = { type: 'ladder_failed', message: 'The encoded renditions could not be made.' };
    expect((await processing.reportWarning({ asset_id: created.id, warning })).status).toBe('ready');
    await processing.reportWarning({ asset_id: created.id, warning: { ...warning, message: 'again' } }); // a redone job
    const warnings = (await outbox(created.id)).filter((e) => e.topic === 'video.asset.warning.v1');
    // the data is the asset's API body with the warning
    expect(warnings.map((e) => e.payload.data)).toEqual([{ ...toAsset(await service.get(created.id)), warning }]);
    await service.delete(created.id);
    expect(await dataSource.query('SELECT * FROM "assets"."asset_warnings" WHERE "asset_id" = $1', [created.id])).toEqual([]);
  });

  it('keeps tracks made on request in the row with their sources, through a probe recorded again, a finish and a delete', async () => {
    const created = await service.create({
      input: [
        { url: URL, generated_subtitles: [{ language_code: 'en' }] },
        { url: 'https://media.example/en.srt', type: 'text', text_type: 'subtitles', language_code: 'en', generated_subtitles: [] },
      ],
      static_renditions: [],
      playback_policy: ['public'],
    });
    const probe = {
      asset_id: created.id,
      tracks: [
        { id: '', type: 'video' },
        { id: '', type: 'audio', primary: true },
      ],
      non_standard_input_reasons: {},
      input_info: [],
      recording_times: [],
    };
    await processing.recordProbe(probe);
    await processing.markReady({ asset_id: created.id });
    const [video, audio, text, generated] = (await processing.recordProbe(probe)).tracks;
    expect([video.type, audio.type, text.text_source, generated.text_source]).toEqual(['video', 'audio', 'uploaded', 'generated_vod']);
    expect(await trackProcessing.getTrackSpec({ asset_id: created.id, track_id: generated.id })).toMatchObject({
      audio_track_id: audio.id,
      audio_primary: true,
    });
    const [row] = await dataSource.query<Array<{ tracks: Array<{ id: string; source?: unknown }> }>>('SELECT "tracks" FROM "assets"."assets" WHERE "id" = $1', [
      created.id,
    ]);
    expect(row.tracks.map((t) => t.source)).toEqual([undefined, undefined, { url: 'https://media.example/en.srt' }, { audio: 'primary' }]);

    const alternate = await tracks.create({ asset_id: created.id, url: 'https://media.example/fr.m4a', type: 'audio', language_code: 'fr' });
    await trackProcessing.setTrackStatus({ asset_id: created.id, track_id: text.id, status: 'ready' });
    await trackProcessing.setTrackStatus({ asset_id: created.id, track_id: alternate.id, status: 'ready', duration: 4, max_channels: 2 });
    const owner = await playback.lookup(created.playback_ids[0].id);
    expect(owner.renditions.map((t) => t.id)).toEqual([audio.id, text.id, alternate.id]);

    await tracks.delete({ asset_id: created.id, track_id: text.id });
    expect((await service.get(created.id)).tracks.map((t) => t.id)).toEqual([video.id, audio.id, generated.id, alternate.id]);
    const topics = (await outbox(text.id)).map((e) => [e.topic, e.payload.data.status]);
    expect(topics).toEqual([
      ['video.asset.track.created.v1', 'preparing'],
      ['video.asset.track.ready.v1', 'ready'],
      ['video.asset.track.deleted.v1', 'deleted'],
    ]);
  });

  it('sweeps expired test assets only', async () => {
    const now = new Date();
    const expired = await service.create({ input: [{ url: URL, generated_subtitles: [] }], static_renditions: [], playback_policy: ['public'], test: true });
    const kept = await service.create({ input: [{ url: URL, generated_subtitles: [] }], static_renditions: [], playback_policy: [], test: false });
    const clock = { now: () => new Date(now.getTime() + 25 * 3600 * 1000) };
    const sweeper = new TestAssetSweeper(assets, service, { ...config, testAssetTtlSeconds: 24 * 3600 }, clock);
    expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
    expect((await rejection(service.get(expired.id))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await service.get(kept.id)).id).toBe(kept.id);
    expect((await outbox(expired.id)).map((e) => e.topic)).toEqual(['video.asset.created.v1', 'video.asset.deleted.v1']);
  });
});

describe('assets service over gRPC', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let app: Awaited<ReturnType<typeof bootstrap>>;
  let client: ReturnType<typeof grpcTestClient>;

  beforeAll(async () => {
    database = await createTestDatabase('assets_app');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assets-app-'));
    const config = loadConfig({
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '3',
      DATA_DIR: dataDir,
      ASSETS_GRPC_URL: `127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'error',
    });
    app = await bootstrap(config);
    client = grpcTestClient('assets', config);
  });

  afterAll(async () => {
    client?.close();
    await app?.close();
    await closeEventBus();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves AssetsService and AssetProcessingService, keeping absent optional fields absent', async () => {
    const assetsService = client.service('platform.assets.v1.AssetsService');
    const processing = client.service('platform.assets.v1.AssetProcessingService');
    const created = await assetsService.CreateAsset({ input: [{ url: URL, generated_subtitles: [] }], playback_policy: ['public'] });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
      created_at: expect.any(Number),
      status: 'preparing',
      max_resolution_tier: '1080p',
      encoding_tier: 'smart',
      video_quality: 'plus',
      playback_ids: [{ id: expect.any(String), policy: 'public' }],
      tracks: [],
      master_access: 'none',
      mp4_support: 'none',
      normalize_audio: false,
      non_standard_input_reasons: {},
      test: false,
      ingest_type: 'on_demand_url',
      recording_times: [],
    });
    const id = created.id as string;
    expect(await processing.GetIngestSpec({ id })).toMatchObject({
      asset_id: id,
      status: 'preparing',
      input: [{ url: URL, generated_subtitles: [] }],
      test: false,
    });
    const probed = await processing.RecordProbe({
      asset_id: id,
      duration: 4.5,
      tracks: [{ type: 'video', max_width: 640 }],
      non_standard_input_reasons: {},
      input_info: [],
    });
    expect(probed.tracks).toEqual([{ id: expect.stringMatching(/^[0-9A-Za-z]{32}$/), type: 'video', max_width: 640 }]);
    expect((await processing.MarkReady({ asset_id: id })).status).toBe('ready');
    const playbackId = (created.playback_ids as Array<{ id: string }>)[0].id;
    const owner = await assetsService.LookupPlaybackId({ id: playbackId });
    expect(owner).toEqual({ id: expect.any(String), policy: 'public', object: { type: 'asset', id }, status: 'ready', renditions: [], duration: 4.5 });
    expect(await assetsService.UpdateAsset({ id, thumbnail_time: 0 })).toMatchObject({ thumbnail_time: 0 });
    expect(await assetsService.LookupPlaybackId({ id: playbackId })).toMatchObject({ thumbnail_time: 0, duration: 4.5 });
    const beyond = await grpcError(assetsService.UpdateAsset({ id, thumbnail_time: 5 }));
    expect([beyond.code, decodeMessages(beyond.details)]).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      ["thumbnail_time: must be within the asset's duration (4.5 s)"],
    ]);
    expect(await assetsService.DeleteThumbnailTime({ id })).toEqual({});
    expect(await assetsService.GetAsset({ id })).not.toHaveProperty('thumbnail_time');
    expect(await assetsService.DeleteAsset({ id })).toEqual({});
    const gone = await grpcError(processing.GetIngestSpec({ id }));
    expect([gone.code, decodeMessages(gone.details)]).toEqual([GrpcStatus.NOT_FOUND, ['Asset not found']]);
  });

  it('answers INVALID_ARGUMENT and UNIMPLEMENTED with the messages the gateway shows', async () => {
    const assetsService = client.service('platform.assets.v1.AssetsService');
    const invalid = await grpcError(assetsService.CreateAsset({ input: [{ url: 'ftp://x/y.mp4', generated_subtitles: [] }], playback_policy: [] }));
    expect([invalid.code, decodeMessages(invalid.details)]).toEqual([GrpcStatus.INVALID_ARGUMENT, ['input[0].url: must be an http or https URL']]);
    const liveWatermark = { input: [{ generated_subtitles: [] }, { url: 'https://media.example/logo.png', overlay_settings: {}, generated_subtitles: [] }] };
    const later = await grpcError(assetsService.CreateAsset({ ...liveWatermark, playback_policy: [], ingest_type: 'live_rtmp', live_stream_id: 'ls1' }));
    expect([later.code, decodeMessages(later.details)]).toEqual([
      GrpcStatus.UNIMPLEMENTED,
      ['input[1].overlay_settings: watermarks on live streams are not implemented yet (live video is packaged without re-encoding)'],
    ]);
  });
});
