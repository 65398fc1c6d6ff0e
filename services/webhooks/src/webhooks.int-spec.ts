import { randomUUID } from 'node:crypto';
import Mux from '@mux/mux-node';
import { loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { decodeMessages, GrpcStatus } from '@platform/errors';
import { AssetBody } from '@platform/api-shapes';
import { closeEventBus, DeliveryInfo, EventBus, EventTypeFor, getEventBus, PlatformEvent, topicOf } from '@platform/events';
import { OutboundGuard } from '@platform/outbound';
import { assetBody, createTestDatabase, freePort, grpcError, grpcTestClient, testEvent, until } from '@platform/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { webhooksDatabase } from './database-options';
import { DeliveryRepository } from './deliveries/delivery.repository';
import { DeliveryDispatcher } from './dispatch/delivery-dispatcher';
import { dispatcherSettings } from './dispatch/dispatch.module';
import { WebhookPoster } from './dispatch/webhook-poster';
import { bootstrap } from './main';
import { Reply, startWebhookReceiver } from './testing/webhook-receiver';

jest.setTimeout(60_000);

const SECRET = 'int-webhook-secret';
const RETRY_BASE_MS = 200;
const TIMEOUT_MS = 1000;
const MAX_ATTEMPTS = 4;
const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9', webhookSecret: SECRET });

interface AttemptRow {
  number: number;
  attempted_at: Date;
  response_status_code: number;
  error: string | null;
  duration_ms: number;
}

interface DeliveryRow {
  id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  completed_at: Date | null;
  claim_token: string | null;
}

/** The webhooks service on a fresh Postgres database, fed through the in-process bus, posting to a local receiver. */
describe('webhook dispatcher against Postgres', () => {
  /** Per object: what the receiver answers to its nth POST (default 200). */
  const replies = new Map<string, (nth: number) => Reply>();
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let database: { url: string; drop(): Promise<void> };
  let config: PlatformConfig;
  let app: Awaited<ReturnType<typeof bootstrap>>;
  let bus: EventBus;
  let pg: Client;
  let client: ReturnType<typeof grpcTestClient>;

  const publish = async (type: EventTypeFor<'asset'>, objectId: string, fields: Partial<AssetBody> = {}): Promise<PlatformEvent> => {
    const event = testEvent(type, assetBody(objectId, fields));
    await bus.publish(topicOf(type), objectId, event);
    return event;
  };
  const delivery = async (eventId: string): Promise<DeliveryRow | undefined> =>
    ((await pg.query('SELECT * FROM "webhooks"."deliveries" WHERE "event_id" = $1', [eventId])).rows as DeliveryRow[])[0];
  const attempts = async (eventId: string): Promise<AttemptRow[]> =>
    (
      await pg.query(
        `SELECT a."number", a."attempted_at", a."response_status_code", a."error", a."duration_ms"
           FROM "webhooks"."delivery_attempts" a JOIN "webhooks"."deliveries" d ON d."id" = a."delivery_id"
          WHERE d."event_id" = $1 ORDER BY a."number"`,
        [eventId],
      )
    ).rows as AttemptRow[];
  const settled = (eventId: string) =>
    until(`event ${eventId} delivered or failed`, async () => ['delivered', 'failed'].includes((await delivery(eventId))?.status ?? ''), { timeoutMs: 15_000 });
  const newObject = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    receiver = await startWebhookReceiver((objectId, nth) => replies.get(objectId)?.(nth) ?? 200);
    database = await createTestDatabase('webhooks_app');
    config = loadConfig({
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '3',
      WEBHOOKS_GRPC_URL: `127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'error',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
      WEBHOOK_RETRY_MAX_MS: '1000',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    });
    app = await bootstrap(config);
    bus = getEventBus(config);
    await bus.start();
    pg = new Client({ connectionString: database.url });
    await pg.connect();
    client = grpcTestClient('webhooks', config);
  });

  afterAll(async () => {
    client?.close();
    await app?.close();
    await closeEventBus();
    await pg?.end();
    await receiver?.close();
    await database?.drop();
  });

  it('retries with backoff, keeps an object in order, and does not hold other objects up', async () => {
    const a = newObject('asset-a');
    const b = newObject('asset-b');
    replies.set(a, (nth) => (nth <= 2 ? 500 : 204)); // the first two POSTs fail
    const a1 = await publish('video.asset.created', a, { status: 'preparing', passthrough: 'pass-a' });
    const a2 = await publish('video.asset.ready', a, { status: 'ready', passthrough: 'pass-a' });
    const b1 = await publish('video.asset.created', b, { status: 'preparing' });
    await settled(a2.id);
    await settled(b1.id);

    // the receiver's view: a1 three times, then a2; b1 went out before a1's first retry
    expect(receiver.posts.filter((p) => p.objectId === a).map((p) => p.eventId)).toEqual([a1.id, a1.id, a1.id, a2.id]);
    const [first, second, third] = receiver.of(a1.id);
    expect(receiver.of(b1.id)).toHaveLength(1);
    expect(receiver.of(b1.id)[0].at).toBeLessThan(second.at);
    expect(receiver.of(a2.id)[0].at).toBeGreaterThanOrEqual(third.at);
    // backoff 200 ms then 400 ms, less at most 20 % jitter
    expect(second.at - first.at).toBeGreaterThanOrEqual(0.8 * RETRY_BASE_MS);
    expect(third.at - second.at).toBeGreaterThanOrEqual(0.8 * 2 * RETRY_BASE_MS);

    // the record: every attempt in order, the delivery done
    const recorded = await attempts(a1.id);
    expect(recorded.map((r) => [r.number, r.response_status_code, r.error])).toEqual([
      [1, 500, null],
      [2, 500, null],
      [3, 204, null],
    ]);
    expect(recorded[1].attempted_at.getTime() - recorded[0].attempted_at.getTime()).toBeGreaterThanOrEqual(0.8 * RETRY_BASE_MS);
    expect(recorded[2].attempted_at.getTime() - recorded[1].attempted_at.getTime()).toBeGreaterThanOrEqual(0.8 * 2 * RETRY_BASE_MS);
    expect(await delivery(a1.id)).toMatchObject({
      status: 'delivered',
      attempt_count: 3,
      next_attempt_at: null,
      claim_token: null,
      completed_at: expect.any(Date),
    });
    expect((await attempts(a2.id)).map((r) => r.response_status_code)).toEqual([204]); // its object's 4th POST

    // every POST is signed so the official SDK accepts it, and lists the attempts before it
    for (const post of [first, second, third, ...receiver.of(a2.id), ...receiver.of(b1.id)]) {
      expect(post.headers['content-type']).toBe('application/json');
      expect(post.headers['user-agent']).toMatch(/^video-platform-webhooks\//);
      await expect(mux.webhooks.unwrap(post.body, post.headers)).resolves.toMatchObject({ id: post.eventId });
    }
    await expect(mux.webhooks.unwrap(third.body.replace('pass-a', 'pass-x'), third.headers)).rejects.toThrow();
    const listed = (JSON.parse(third.body) as { attempts: Array<Record<string, unknown>> }).attempts;
    expect(listed).toEqual([
      expect.objectContaining({
        address: receiver.url,
        max_attempts: MAX_ATTEMPTS,
        response_status_code: 500,
        response_body: 'answered 500',
        created_at: recorded[0].attempted_at.toISOString(),
      }),
      expect.objectContaining({
        address: receiver.url,
        max_attempts: MAX_ATTEMPTS,
        response_status_code: 500,
        created_at: recorded[1].attempted_at.toISOString(),
      }),
    ]);
    expect(listed[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(listed[0].response_headers).toMatchObject({ 'content-type': 'text/plain' });

    // the body Mux sends, passthrough inside data
    const [environment] = (await pg.query('SELECT "id", "name" FROM "webhooks"."environment"')).rows as Array<{ id: string; name: string }>;
    expect(JSON.parse(first.body)).toEqual({
      type: 'video.asset.created',
      id: a1.id,
      created_at: a1.occurred_at,
      object: { type: 'asset', id: a },
      data: assetBody(a, { status: 'preparing', passthrough: 'pass-a' }),
      environment: { name: 'Production', id: environment.id },
      attempts: [],
      accessor_source: null,
      accessor: null,
      request_id: null,
    });
  });

  it('records a timeout as status 0 with the reason, then retries', async () => {
    const t = newObject('asset-t');
    replies.set(t, (nth) => (nth === 1 ? 'hang' : 200));
    const event = await publish('video.asset.updated', t);
    await settled(event.id);
    const recorded = await attempts(event.id);
    expect(recorded.map((r) => [r.number, r.response_status_code, r.error])).toEqual([
      [1, 0, `timed out after ${TIMEOUT_MS} ms`],
      [2, 200, null],
    ]);
    expect(recorded[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
    expect((await delivery(event.id))?.status).toBe('delivered');
  });

  it('fails a delivery after the last attempt, and the next event of its object then goes out', async () => {
    const f = newObject('asset-f');
    replies.set(f, (nth) => (nth <= MAX_ATTEMPTS ? 503 : 200));
    const doomed = await publish('video.asset.errored', f, { status: 'errored' });
    const next = await publish('video.asset.deleted', f);
    await settled(next.id);
    expect(await delivery(doomed.id)).toMatchObject({ status: 'failed', attempt_count: MAX_ATTEMPTS, next_attempt_at: null, completed_at: expect.any(Date) });
    expect((await attempts(doomed.id)).map((r) => r.response_status_code)).toEqual([503, 503, 503, 503]);
    expect(receiver.posts.filter((p) => p.objectId === f).map((p) => p.eventId)).toEqual([doomed.id, doomed.id, doomed.id, doomed.id, next.id]);
    expect((await delivery(next.id))?.status).toBe('delivered');
  });

  it('records and sends a redelivered event once', async () => {
    const d = newObject('asset-d');
    const event = await publish('video.asset.updated', d);
    await bus.publish(topicOf('video.asset.updated'), d, event); // the bus redelivers (at least once)
    const marker = await publish('video.asset.deleted', d);
    await settled(marker.id);
    const rows = (await pg.query('SELECT count(*)::int AS n FROM "webhooks"."deliveries" WHERE "event_id" = $1', [event.id])).rows as Array<{ n: number }>;
    expect(rows[0].n).toBe(1);
    expect(receiver.of(event.id)).toHaveLength(1);
  });

  it('never sends an event that fails the registry’s schema: it goes to the dead-letter topic with the reason', async () => {
    const h = newObject('asset-h');
    const dead: Array<[PlatformEvent, DeliveryInfo]> = [];
    const keep = (e: PlatformEvent, i: DeliveryInfo) => Promise.resolve(void dead.push([e, i]));
    await bus.subscribe({ group: `dlq-${h}`, topics: [`${topicOf('video.asset.ready')}.dlq`], handle: keep });
    const valid = testEvent('video.asset.ready', assetBody(h, { status: 'ready' }));
    const invalid = { ...valid, id: randomUUID(), data: { ...valid.data, status: 'finished' } };
    await bus.publish(topicOf('video.asset.ready'), h, invalid);
    const marker = await publish('video.asset.deleted', h);
    await settled(marker.id);
    await until('the dead letter', () => dead.length > 0, { timeoutMs: 15_000 });
    expect(dead.map(([e]) => e.id)).toEqual([invalid.id]);
    expect(dead[0][1].deadLetter).toEqual({
      reason: 'invalid event: data does not match video.asset.ready.v1: status: Invalid option: expected one of "preparing"|"ready"|"errored"',
      group: 'webhooks',
      topic: topicOf('video.asset.ready'),
    });
    expect(await delivery(invalid.id)).toBeUndefined();
    expect(receiver.posts.filter((p) => p.objectId === h).map((p) => p.eventId)).toEqual([marker.id]);
  });

  it('serves deliveries over gRPC: by delivery or event id, listed per object newest first', async () => {
    const g = newObject('asset-g');
    replies.set(g, (nth) => (nth === 1 ? 502 : 200));
    const e1 = await publish('video.asset.created', g);
    const e2 = await publish('video.asset.ready', g);
    await settled(e2.id);
    const service = client.service('platform.webhooks.v1.WebhooksService');

    const byEvent = await service.GetDelivery({ id: e1.id });
    expect(byEvent).toEqual({
      id: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
      event_id: e1.id,
      event_type: 'video.asset.created',
      object_type: 'asset',
      object_id: g,
      status: 'delivered',
      attempts: [
        { number: 1, attempted_at: expect.any(Number), response_status_code: 502, duration_ms: expect.any(Number) },
        { number: 2, attempted_at: expect.any(Number), response_status_code: 200, duration_ms: expect.any(Number) },
      ],
      created_at: expect.any(Number),
      url: receiver.url,
    });
    expect(await service.GetDelivery({ id: byEvent.id as string })).toEqual(byEvent);

    const listed = await service.ListDeliveries({ limit: 10, page: 1, object_id: g });
    expect((listed.items as Array<{ event_id: string }>).map((d) => d.event_id)).toEqual([e2.id, e1.id]);
    expect((listed.items as unknown[])[1]).toEqual(byEvent);

    const missing = await grpcError(service.GetDelivery({ id: 'no-such-delivery' }));
    expect(missing.code).toBe(GrpcStatus.NOT_FOUND);
    expect(decodeMessages(missing.details)).toEqual(['Delivery not found']);
  });

  it('with a second dispatcher on the same database, sends every delivery exactly once and each object in order', async () => {
    const other: DataSource = await openDatabase(config, webhooksDatabase);
    const replica = new DeliveryDispatcher(
      new DeliveryRepository(other),
      new WebhookPoster(TIMEOUT_MS, new OutboundGuard('loopback')),
      dispatcherSettings(config),
    );
    replica.start();
    try {
      const objects = Array.from({ length: 12 }, () => newObject('asset-r'));
      const published: PlatformEvent[] = [];
      for (const type of ['video.asset.created', 'video.asset.ready', 'video.asset.updated'] as const) {
        for (const o of objects) published.push(await publish(type, o));
      }
      for (const event of published) await settled(event.id);

      for (const o of objects) {
        const mine = published.filter((e) => e.object.id === o).map((e) => e.id);
        expect(receiver.posts.filter((p) => p.objectId === o).map((p) => p.eventId)).toEqual(mine);
      }
      const attemptCounts = (
        await pg.query(
          `SELECT d."event_id", count(a."id")::int AS n FROM "webhooks"."deliveries" d JOIN "webhooks"."delivery_attempts" a ON a."delivery_id" = d."id"
          WHERE d."event_id" = ANY($1::text[]) GROUP BY d."event_id"`,
          [published.map((e) => e.id)],
        )
      ).rows as Array<{ n: number }>;
      expect(attemptCounts).toHaveLength(published.length);
      expect(attemptCounts.every((r) => r.n === 1)).toBe(true);
    } finally {
      await replica.stop();
      await other.destroy();
    }
  });
});
