import { Global, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@platform/config';
import { BEACONS_STREAM, BeaconBatch, dataTopicOf, EVENT_BUS, EventBus, InProcessBus, PlatformEvent } from '@platform/events';
import { PlatformConfigModule } from '@platform/grpc';
import { CollectorHandler } from './collector-handler';
import { CollectorListener, CollectorModule } from './collector.module';
import { CollectorServer } from './collector-server';
import { loadFixture } from './testing/beacon-fixtures';

const config = { ...loadConfig({}), host: '127.0.0.1' };
config.collector = { ...config.collector, port: 0, maxBodyBytes: 64 * 1024 };
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

describe('the beacon collector (CollectorModule, in-process bus)', () => {
  const bus = new InProcessBus();
  const published: PlatformEvent[] = [];
  let app: INestApplicationContext;
  let url: string;

  @Global()
  @Module({ providers: [{ provide: EVENT_BUS, useValue: bus }], exports: [EVENT_BUS] })
  class TestBusModule {}

  beforeAll(async () => {
    await bus.subscribe({ group: 'test', topics: [dataTopicOf(BEACONS_STREAM)], handle: async (event) => void published.push(event) });
    await bus.start();
    app = await NestFactory.createApplicationContext(
      { module: class TestApp {}, imports: [PlatformConfigModule.forRoot(config), TestBusModule, CollectorModule] },
      { logger: false },
    );
    await app.init();
    url = `http://127.0.0.1:${app.get(CollectorListener).port}`;
  });

  afterAll(async () => {
    await app.close();
    await bus.close();
  });

  const waitForBatches = async (n: number) => {
    for (let i = 0; i < 100 && published.length < n; i++) await new Promise((r) => setTimeout(r, 20));
    return published.splice(0).map((e) => e.data as BeaconBatch);
  };

  it('takes a captured POST as mux-embed sends it: 200 with CORS, one batch on data.beacons with full keys and enrichment', async () => {
    const post = loadFixture('playback-view').posts[0];
    const res = await fetch(`${url}/`, { method: 'POST', headers: { 'content-type': 'text/plain', 'user-agent': UA }, body: JSON.stringify(post.body) });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe('');
    const [batch, ...more] = await waitForBatches(1);
    expect(more).toEqual([]);
    expect(batch.view_id).toBe(post.body.events[0].xid);
    expect(batch.events).toHaveLength(post.body.events.length);
    expect(batch.events[0]).toMatchObject({
      event: 'networkchange',
      view_sequence_number: 1,
      viewer_time: post.body.events[0].uti,
      viewer_application_name: 'Mobile Safari',
      viewer_os_family: 'iOS',
      viewer_device_category: 'phone',
      viewer_user_agent: UA,
    });
    expect(batch.events.find((e) => e.event === 'loadstart')?.playback_id).toBe('c4pTuReD01PlaybackId00SoUrce');
  });

  it('takes application/json and any path (a beaconCollectionDomain with a path)', async () => {
    const body = JSON.stringify(loadFixture('error-view').posts[0].body);
    const res = await fetch(`${url}/some/path`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    expect(await waitForBatches(1)).toHaveLength(1);
  });

  it('answers a preflight permissively', async () => {
    const res = await fetch(url, { method: 'OPTIONS', headers: { origin: 'https://customer.example', 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type');
  });

  it('refuses malformed bodies with 400 and a JSON error, and counts them', async () => {
    for (const body of ['not json', '{"events":"x"}', JSON.stringify({ events: Array.from({ length: 301 }, () => ({ xid: 'v' })) })]) {
      const res = await fetch(url, { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({ error: { type: 'invalid_parameters', messages: [expect.any(String)] } });
    }
    const health = await (await fetch(`${url}/healthz`)).json();
    expect(health).toMatchObject({ status: 'ok', counters: { rejectedMalformed: 3, acceptedPosts: 2 } });
  });

  it('refuses bodies over the limit with 413, declared or streamed', async () => {
    const big = JSON.stringify({ events: [{ xid: 'v', vtt: 'x'.repeat(70 * 1024) }] });
    expect((await fetch(url, { method: 'POST', body: big })).status).toBe(413);
    const streamed = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(16 * 1024)));
        controller.close();
      },
    });
    const res = await fetch(url, { method: 'POST', body: streamed, duplex: 'half' });
    expect(res.status).toBe(413);
    const health = (await (await fetch(`${url}/healthz`)).json()) as { counters: { rejectedTooLarge: number } };
    expect(health.counters.rejectedTooLarge).toBe(2);
    expect(await waitForBatches(0)).toEqual([]);
  });

  it('answers 404 to other requests', async () => {
    expect((await fetch(`${url}/other`)).status).toBe(404);
  });
});

describe('the beacon collector when the bus refuses', () => {
  it('answers 503 so the player resends, and keeps serving', async () => {
    const failing = { publish: () => Promise.reject(new Error('broker down')) } as unknown as EventBus;
    const handler = new CollectorHandler(failing, { ...config.collector });
    const server = new CollectorServer(handler);
    const port = await server.listen(0, '127.0.0.1');
    try {
      const body = JSON.stringify(loadFixture('error-view').posts[0].body);
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body });
      expect(res.status).toBe(503);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(handler.counters.publishFailures).toBe(1);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
