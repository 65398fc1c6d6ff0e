import { Logger } from '@nestjs/common';
import { loadConfig, PlatformConfig } from '@platform/config';
import { EVENT_TYPES, EventBus, PlatformEvent, Subscription } from '@platform/events';
import { assetBody, testEvent } from '@platform/testing';
import { InMemoryDeliveries } from '../testing/in-memory-deliveries';
import { EventRecorder } from './event-recorder';

class FakeBus implements Pick<EventBus, 'subscribe'> {
  readonly subscriptions: Subscription[] = [];
  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.push(subscription);
  }
}

const event: PlatformEvent = {
  id: 'evt-1',
  type: 'video.asset.created',
  occurred_at: '2024-03-01T10:00:00.000Z',
  object: { type: 'asset', id: 'asset-1' },
  data: { id: 'asset-1', status: 'preparing', passthrough: 'order-42' },
};

function setup(env: Record<string, string>) {
  const config: PlatformConfig = loadConfig(env);
  const bus = new FakeBus();
  const store = new InMemoryDeliveries();
  const nudges: number[] = [];
  const recorder = new EventRecorder(
    bus as unknown as EventBus,
    config,
    store,
    { get: async () => ({ name: 'Production', id: 'env-7' }) },
    { nudge: () => void nudges.push(1) },
  );
  return { recorder, bus, store, nudges };
}

const configured = { WEBHOOK_URL: 'https://hooks.example/in', WEBHOOK_SECRET: 's3cret' };

describe('EventRecorder', () => {
  it('subscribes as consumer group `webhooks` to the topic of every published event type', async () => {
    const { recorder, bus } = setup(configured);
    await recorder.onModuleInit();
    expect(bus.subscriptions).toHaveLength(1);
    expect(bus.subscriptions[0].group).toBe('webhooks');
    expect(bus.subscriptions[0].topics).toEqual(EVENT_TYPES.map((t) => `${t}.v1`));
    expect(bus.subscriptions[0].topics).toContain('video.asset.ready.v1');
  });

  it('validates each event against the registry before recording it (an invalid one is a dead letter, never a webhook)', async () => {
    const { recorder, bus } = setup(configured);
    await recorder.onModuleInit();
    const validate = bus.subscriptions[0].validate!;
    const valid = testEvent('video.asset.created', assetBody('asset-1'));
    expect(validate(valid, 'video.asset.created.v1')).toBeUndefined();
    expect(validate({ ...valid, data: { id: 'asset-1', status: 'preparing' } }, 'video.asset.created.v1')).toMatch(
      /^data does not match video\.asset\.created\.v1: /,
    );
    expect(validate({ ...valid, type: 'video.asset.exploded' }, 'video.asset.exploded.v1')).toBe('type video.asset.exploded is not one this consumer reads');
  });

  it('records one pending delivery per event, with the Mux body and the configured URL, once however often the event comes', async () => {
    const { recorder, bus, store, nudges } = setup(configured);
    await recorder.onModuleInit();
    const handle = bus.subscriptions[0].handle;
    await handle(event, { topic: 'video.asset.created.v1', key: 'asset-1', attempt: 1 });
    await handle(event, { topic: 'video.asset.created.v1', key: 'asset-1', attempt: 1 });

    expect(store.rows).toHaveLength(1);
    expect(store.rows[0]).toMatchObject({
      id: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
      eventId: 'evt-1',
      eventType: 'video.asset.created',
      objectType: 'asset',
      objectId: 'asset-1',
      url: 'https://hooks.example/in',
      status: 'pending',
      attemptCount: 0,
    });
    expect(store.rows[0].body).toEqual({
      type: 'video.asset.created',
      id: 'evt-1',
      created_at: '2024-03-01T10:00:00.000Z',
      object: { type: 'asset', id: 'asset-1' },
      data: { id: 'asset-1', status: 'preparing', passthrough: 'order-42' },
      environment: { name: 'Production', id: 'env-7' },
      attempts: [],
      accessor_source: null,
      accessor: null,
      request_id: null,
    });
    expect(nudges).toHaveLength(1); // only the first recording wakes the dispatcher
  });

  it('records nothing while WEBHOOK_URL is unset, and says so once at start', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    try {
      const { recorder, bus, store, nudges } = setup({});
      await recorder.onModuleInit();
      expect(log.mock.calls.filter(([m]) => String(m).includes('WEBHOOK_URL is not set'))).toHaveLength(1);
      await bus.subscriptions[0].handle(event, { topic: 'video.asset.created.v1', key: 'asset-1', attempt: 1 });
      await bus.subscriptions[0].handle({ ...event, id: 'evt-2' }, { topic: 'video.asset.created.v1', key: 'asset-1', attempt: 1 });
      expect(store.rows).toEqual([]);
      expect(nudges).toEqual([]);
      expect(log.mock.calls.filter(([m]) => String(m).includes('WEBHOOK_URL is not set'))).toHaveLength(1);
    } finally {
      log.mockRestore();
    }
  });
});
