import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Global, INestMicroservice, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig } from '@platform/config';
import { GrpcStatus } from '@platform/errors';
import { DELIVERIES_STREAM, DeliveryItem, EVENT_BUS, InProcessBus, PlatformEvent, publishData, topicOf } from '@platform/events';
import { GrpcExceptionFilter, grpcServerOptions, PlatformConfigModule } from '@platform/grpc';
import { assetBody, freePort, grpcError, grpcTestClient, testEvent } from '@platform/testing';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { createAnalyticsStore } from '../clickhouse/create-analytics-store';
import { runStoreMigrations } from '../clickhouse/store-migrations';
import { DeliveryUsageModule } from './delivery-usage.module';
import { DELIVERY_USAGE_MIGRATIONS } from './delivery-usage.migrations';
import { DELIVERY_USAGE_CLOCK } from './delivery-usage.service';

jest.setTimeout(60_000);

const NOW = Date.parse('2026-11-27T15:20:00Z');
const H = (hour: number) => `2026-11-27T${String(hour).padStart(2, '0')}:00:00.000Z`;
const S = (iso: string) => Date.parse(iso) / 1000;

const item = (hour: number, assetId: string, tier: string, mediaSeconds: number, playbackId = `pb-${assetId}`): DeliveryItem => ({
  hour: H(hour),
  playback_id: playbackId,
  asset_id: assetId,
  live_stream_id: null,
  resolution_tier: tier,
  media_seconds: mediaSeconds,
  bytes: Math.round(mediaSeconds * 1000),
  segments: 1,
});

// libchdb binds one data directory per process: the whole file uses this one.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-usage-'));

describe('delivery usage in the analytics service (chDB, in-process bus, gRPC)', () => {
  let store: AnalyticsStore;
  let bus: InProcessBus;
  let app: INestMicroservice;
  let client: ReturnType<typeof grpcTestClient>;
  let usage: Record<string, (request: object) => Promise<Record<string, unknown>>>;

  const publishAsset = async (type: 'video.asset.created' | 'video.asset.ready' | 'video.asset.deleted', event: PlatformEvent) =>
    bus.publish(topicOf(type), event.object.id, event);

  beforeAll(async () => {
    const config = { ...loadConfig({ ANALYTICS_GRPC_URL: `127.0.0.1:${await freePort()}`, DELIVERY_USAGE_LAG_SECONDS: '0' }), dataDir };
    store = await createAnalyticsStore({ dataDir, clickhouseUrl: undefined });
    await runStoreMigrations(store, DELIVERY_USAGE_MIGRATIONS);
    bus = new InProcessBus(3);

    @Global()
    @Module({
      providers: [
        { provide: EVENT_BUS, useValue: bus },
        { provide: ANALYTICS_STORE, useValue: store },
      ],
      exports: [EVENT_BUS, ANALYTICS_STORE],
    })
    class AppPorts {}

    const moduleRef = await Test.createTestingModule({ imports: [PlatformConfigModule.forRoot(config), AppPorts, DeliveryUsageModule] })
      .overrideProvider(DELIVERY_USAGE_CLOCK)
      .useValue(() => NOW)
      .compile();
    app = moduleRef.createNestMicroservice(grpcServerOptions('analytics', config));
    app.useGlobalFilters(new GrpcExceptionFilter());
    await app.listen();
    await bus.start();
    client = grpcTestClient('analytics', config);
    usage = client.service('platform.analytics.v1.DeliveryUsageService');

    const asset = (id: string, fields: Parameters<typeof assetBody>[1], occurredAt: string) => ({
      ...testEvent('video.asset.ready', assetBody(id, { status: 'ready', duration: 60, resolution_tier: '1080p', ...fields })),
      occurred_at: occurredAt,
    });
    await publishAsset('video.asset.ready', asset('a-big', { passthrough: 'big one' }, '2026-11-27T10:00:00.000Z'));
    await publishAsset('video.asset.ready', asset('a-live', { live_stream_id: 'ls-1', ingest_type: 'live_rtmp' }, '2026-11-27T10:00:00.000Z'));
    // deleted, its earlier `ready` arriving after the deletion: the deletion stays
    await publishAsset('video.asset.deleted', { ...asset('a-gone', {}, '2026-11-27T12:30:00.000Z'), type: 'video.asset.deleted' });
    await publishAsset('video.asset.ready', asset('a-gone', { duration: 99 }, '2026-11-27T11:00:00.000Z'));

    const batch = {
      id: 'batch-1',
      reported_at: '2026-11-27T15:00:10.000Z',
      items: [
        item(13, 'a-big', '1080p', 100),
        item(13, 'a-big', '720p', 20.5),
        item(14, 'a-big', '1080p', 30),
        item(14, 'a-live', '720p', 50),
        item(14, 'a-gone', 'audio_only', 10),
        item(14, 'a-zero', '720p', 0),
        item(11, 'a-old', '2160p', 500),
      ],
    };
    await publishData(bus, DELIVERIES_STREAM, batch);
    await publishData(bus, DELIVERIES_STREAM, batch); // a redelivery: counted once
    await publishData(bus, DELIVERIES_STREAM, { id: 'batch-2', reported_at: '2026-11-27T15:00:20.000Z', items: [item(14, 'a-live', '1440p', 5, 'pb-ls')] });
    await bus.settled();
  });

  afterAll(async () => {
    client?.close();
    await app?.close();
    await bus?.close();
    await store?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const list = (request: object) => usage.listDeliveryUsage({ page: 1, limit: 100, ...request });

  it('lists assets by delivered seconds over the window, with their tiers and facts, deleted ones too, none with 0 s', async () => {
    const reply = await list({ timeframe_start: S(H(13)), timeframe_end: S(H(15)) });
    expect(reply.total_row_count).toBe(3);
    expect([reply.timeframe_start, reply.timeframe_end]).toEqual([S(H(13)), S(H(15))]);
    const items = reply.items as Array<Record<string, unknown>>;
    expect(items.map((i) => [i.asset_id, i.delivered_seconds])).toEqual([
      ['a-big', 150.5],
      ['a-live', 55],
      ['a-gone', 10],
    ]);
    expect(items[0]).toMatchObject({
      asset_id: 'a-big',
      passthrough: 'big one',
      asset_duration: 60,
      asset_state: 'ready',
      asset_resolution_tier: '1080p',
      asset_encoding_tier: 'smart',
      asset_video_quality: 'plus',
      created_at: 1700000000,
      delivered_seconds_by_resolution: { tier_1080p: 130, tier_720p: 20.5 },
    });
    expect(items[0].delivered_seconds_by_resolution).not.toHaveProperty('tier_2160p');
    expect(items[1]).toMatchObject({ live_stream_id: 'ls-1', delivered_seconds_by_resolution: { tier_720p: 50, tier_1440p: 5 } });
    expect(items[2]).toMatchObject({ asset_state: 'deleted', deleted_at: S('2026-11-27T12:30:00.000Z'), asset_duration: 60 });
  });

  it('defaults to the last complete hour before the lag (0 here): 14:00–15:00', async () => {
    const reply = await list({});
    expect([reply.timeframe_start, reply.timeframe_end]).toEqual([S(H(14)), S(H(15))]);
    expect((reply.items as Array<Record<string, unknown>>).map((i) => i.asset_id)).toEqual(['a-live', 'a-big', 'a-gone']);
  });

  it('filters by asset or by live stream (its recordings), and pages', async () => {
    const window = { timeframe_start: S(H(0)), timeframe_end: S(H(15)) };
    const byAsset = await list({ ...window, asset_id: 'a-big' });
    expect((byAsset.items as Array<Record<string, unknown>>).map((i) => i.asset_id)).toEqual(['a-big']);
    const byStream = await list({ ...window, live_stream_id: 'ls-1' });
    expect((byStream.items as Array<Record<string, unknown>>).map((i) => i.asset_id)).toEqual(['a-live']);
    const page2 = await list({ ...window, limit: 2, page: 2 });
    expect(page2.total_row_count).toBe(4);
    expect((page2.items as Array<Record<string, unknown>>).map((i) => i.asset_id)).toEqual(['a-live', 'a-gone']);
    expect((await list({ ...window, limit: 2, page: 3 })).items).toEqual([]);
  });

  it('shows an asset whose events it has not seen with what the deliveries tell', async () => {
    const reply = await list({ timeframe_start: S(H(11)), timeframe_end: S(H(12)) });
    expect(reply.items).toEqual([
      expect.objectContaining({ asset_id: 'a-old', asset_state: 'ready', asset_resolution_tier: '2160p', created_at: 0, delivered_seconds: 500 }),
    ]);
  });

  it('refuses both filters and windows outside the rules with INVALID_ARGUMENT naming the rule', async () => {
    const both = await grpcError(list({ asset_id: 'a', live_stream_id: 'l' }));
    expect(both.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(both.details).toContain('asset_id and live_stream_id cannot be combined');
    const future = await grpcError(list({ timeframe_start: NOW / 1000 - 60, timeframe_end: NOW / 1000 + 3600 }));
    expect(future.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(future.details).toContain('timeframe: the end must be');
  });
});
