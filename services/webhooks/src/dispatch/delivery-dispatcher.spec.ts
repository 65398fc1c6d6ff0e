import Mux from '@mux/mux-node';
import { newId } from '@platform/ids';
import { until } from '@platform/testing';
import { InMemoryDeliveries } from '../testing/in-memory-deliveries';
import { DeliveryDispatcher, DispatcherSettings, Poster } from './delivery-dispatcher';
import { PostResult, USER_AGENT } from './webhook-poster';

const SECRET = 'dispatcher-secret';
const URL = 'http://receiver.test/hooks';
const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9', webhookSecret: SECRET });

interface Call {
  eventId: string;
  body: string;
  headers: Record<string, string>;
  at: number;
  settle(statusCode: number): void;
}

/** A receiver whose every reply the test decides, or `auto` decides at once. */
class FakePoster implements Poster {
  readonly calls: Call[] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly auto?: (eventId: string, nthCallOfEvent: number) => number) {}

  post(url: string, body: string, headers: Record<string, string>): Promise<PostResult> {
    expect(url).toBe(URL);
    const eventId = (JSON.parse(body) as { id: string }).id;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    return new Promise((resolve) => {
      const call: Call = {
        eventId,
        body,
        headers,
        at: Date.now(),
        settle: (statusCode) => {
          this.inFlight--;
          resolve({
            statusCode,
            headers: statusCode ? { 'x-n': String(this.calls.length) } : null,
            body: statusCode ? `reply ${statusCode}` : null,
            error: statusCode ? null : 'connect ECONNREFUSED',
            durationMs: 3,
          });
        },
      };
      this.calls.push(call);
      if (this.auto) call.settle(this.auto(eventId, this.calls.filter((c) => c.eventId === eventId).length));
    });
  }

  of(eventId: string): Call[] {
    return this.calls.filter((c) => c.eventId === eventId);
  }
}

function setup(poster: FakePoster, over: Partial<DispatcherSettings> = {}) {
  const store = new InMemoryDeliveries();
  const settings: DispatcherSettings = {
    secret: SECRET,
    maxAttempts: 5,
    retryBaseMs: 30,
    retryMaxMs: 1000,
    concurrency: 4,
    pollMs: 10,
    leaseMs: 60_000,
    orderHoldMs: 0,
    ...over,
  };
  const dispatcher = new DeliveryDispatcher(store, poster, settings, () => 0);
  const add = async (eventId: string, objectId: string) => {
    const body = {
      type: 'video.asset.updated',
      id: eventId,
      created_at: '2024-01-01T00:00:00.000Z',
      object: { type: 'asset', id: objectId },
      data: { id: objectId },
      environment: { name: 'Production', id: 'env' },
      attempts: [],
    };
    await store.record({ id: newId(), eventId, eventType: body.type, objectType: 'asset', objectId, url: URL, body });
  };
  return { store, dispatcher, add };
}

describe('DeliveryDispatcher', () => {
  let dispatcher: DeliveryDispatcher | undefined;
  afterEach(async () => {
    await dispatcher?.stop();
    dispatcher = undefined;
  });

  it('sends the deliveries of one object strictly in order while another object goes ahead', async () => {
    const poster = new FakePoster();
    const t = setup(poster);
    dispatcher = t.dispatcher;
    await t.add('a1', 'A');
    await t.add('a2', 'A');
    await t.add('b1', 'B');
    dispatcher.start();

    await until('a1 and b1 posted', () => poster.of('a1').length === 1 && poster.of('b1').length === 1);
    poster.of('b1')[0].settle(200);
    await until('b1 delivered', () => t.store.byEvent('b1').status === 'delivered');
    // a1 is still unanswered: a2 must not have been sent
    await new Promise((r) => setTimeout(r, 50));
    expect(poster.of('a2')).toEqual([]);

    poster.of('a1')[0].settle(200);
    await until('a2 posted', () => poster.of('a2').length === 1);
    poster.of('a2')[0].settle(204);
    await until('a2 delivered', () => t.store.byEvent('a2').status === 'delivered');
    expect(poster.calls.map((c) => c.eventId)).toEqual(['a1', 'b1', 'a2']);
    expect(t.store.byEvent('a1').status).toBe('delivered');
  });

  it('retries with exponential backoff, records every attempt, and lists earlier attempts in each signed body', async () => {
    const poster = new FakePoster((eventId, n) => (eventId === 'a1' && n <= 2 ? 503 : 200));
    const t = setup(poster);
    dispatcher = t.dispatcher;
    await t.add('a1', 'A');
    await t.add('a2', 'A');
    dispatcher.start();

    await until('a2 delivered', () => t.store.byEvent('a2').status === 'delivered');
    const a1 = t.store.byEvent('a1');
    expect(a1).toMatchObject({ status: 'delivered', attemptCount: 3, nextAttemptAt: null, claimToken: null });
    const attempts = await t.store.attemptsOf([a1.id]);
    expect(attempts.map((a) => [a.number, a.responseStatusCode, a.address])).toEqual([
      [1, 503, URL],
      [2, 503, URL],
      [3, 200, URL],
    ]);

    const calls = poster.of('a1');
    expect(calls).toHaveLength(3);
    // backoff 30 ms then 60 ms (no jitter drawn)
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(30);
    expect(calls[2].at - calls[1].at).toBeGreaterThanOrEqual(60);
    expect(poster.of('a2')[0].at).toBeGreaterThanOrEqual(calls[2].at);

    for (const call of [...calls, ...poster.of('a2')]) {
      expect(call.headers).toEqual({
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'mux-signature': expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
      });
      await expect(mux.webhooks.unwrap(call.body, call.headers)).resolves.toMatchObject({ id: call.eventId });
    }
    const listed = calls.map((c) => (JSON.parse(c.body) as { attempts: Array<Record<string, unknown>> }).attempts);
    expect(listed[0]).toEqual([]);
    expect(listed[1]).toEqual([
      {
        id: attempts[0].id,
        address: URL,
        created_at: attempts[0].attemptedAt.toISOString(),
        max_attempts: 5,
        response_status_code: 503,
        response_headers: { 'x-n': '1' },
        response_body: 'reply 503',
      },
    ]);
    expect(listed[2].map((a) => [a.id, a.response_status_code])).toEqual([
      [attempts[0].id, 503],
      [attempts[1].id, 503],
    ]);
  });

  it('fails a delivery after maxAttempts, recording why, and then lets the next one of its object go', async () => {
    const poster = new FakePoster((eventId) => (eventId === 'a1' ? 0 : 200));
    const t = setup(poster, { maxAttempts: 3, retryBaseMs: 5 });
    dispatcher = t.dispatcher;
    await t.add('a1', 'A');
    await t.add('a2', 'A');
    dispatcher.start();

    await until('a2 delivered', () => t.store.byEvent('a2').status === 'delivered');
    const a1 = t.store.byEvent('a1');
    expect(a1).toMatchObject({ status: 'failed', attemptCount: 3, nextAttemptAt: null });
    expect(a1.completedAt).toBeInstanceOf(Date);
    const attempts = await t.store.attemptsOf([a1.id]);
    expect(attempts.map((a) => [a.number, a.responseStatusCode, a.error])).toEqual([
      [1, 0, 'connect ECONNREFUSED'],
      [2, 0, 'connect ECONNREFUSED'],
      [3, 0, 'connect ECONNREFUSED'],
    ]);
    expect(poster.calls.map((c) => c.eventId)).toEqual(['a1', 'a1', 'a1', 'a2']);
  });

  it('keeps at most `concurrency` POSTs in flight and gets through every object', async () => {
    const poster = new FakePoster();
    const t = setup(poster, { concurrency: 4 });
    dispatcher = t.dispatcher;
    for (let i = 0; i < 10; i++) await t.add(`e${i}`, `object-${i}`);
    dispatcher.start();

    for (let answered = 0; answered < 10; answered++) {
      await until(`post ${answered + 1}`, () => poster.calls.length > answered);
      await new Promise((r) => setTimeout(r, 20)); // time for any over-claiming to show
      expect(poster.inFlight).toBeLessThanOrEqual(4);
      poster.calls[answered].settle(200);
    }
    await until('all delivered', () => t.store.rows.every((r) => r.status === 'delivered'));
    expect(poster.maxInFlight).toBe(4);
    expect(new Set(poster.calls.map((c) => c.eventId)).size).toBe(10);
  });

  it('sends nothing without a webhook secret (WEBHOOK_URL unset)', async () => {
    const poster = new FakePoster(() => 200);
    const t = setup(poster, { secret: undefined });
    dispatcher = t.dispatcher;
    await t.add('a1', 'A');
    const claim = jest.spyOn(t.store, 'claimDue');
    dispatcher.start();
    dispatcher.nudge();
    await new Promise((r) => setTimeout(r, 50));
    expect(claim).not.toHaveBeenCalled();
    expect(poster.calls).toEqual([]);
  });
});
