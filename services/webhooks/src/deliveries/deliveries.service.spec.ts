import { ErrorCode } from '@platform/errors';
import { rejection } from '@platform/testing';
import { InMemoryDeliveries } from '../testing/in-memory-deliveries';
import { DeliveriesService } from './deliveries.service';
import { DeliveryRepository } from './delivery.repository';

async function setup() {
  const store = new InMemoryDeliveries();
  const service = new DeliveriesService(store as unknown as DeliveryRepository);
  for (const [eventId, objectId] of [
    ['e1', 'A'],
    ['e2', 'B'],
    ['e3', 'A'],
  ]) {
    await store.record({
      id: `d-${eventId}`,
      eventId,
      eventType: 'video.asset.updated',
      objectType: 'asset',
      objectId,
      url: 'https://hooks.example/in',
      body: {},
    });
  }
  return { store, service };
}

describe('DeliveriesService', () => {
  it('gets a delivery by its id or by its event id, with its attempts oldest first', async () => {
    const { store, service } = await setup();
    const row = store.byEvent('e1');
    row.createdAt = new Date(1_700_000_000_500);
    row.nextAttemptAt = new Date(1_700_000_060_900);
    store.attempts.push(
      {
        id: 'at-2',
        deliveryId: 'd-e1',
        number: 2,
        attemptedAt: new Date(1_700_000_030_000),
        address: row.url,
        responseStatusCode: 0,
        responseHeaders: null,
        responseBody: null,
        error: 'timed out after 5000 ms',
        durationMs: 5003,
      },
      {
        id: 'at-1',
        deliveryId: 'd-e1',
        number: 1,
        attemptedAt: new Date(1_700_000_001_000),
        address: row.url,
        responseStatusCode: 500,
        responseHeaders: {},
        responseBody: 'no',
        error: null,
        durationMs: 20,
      },
    );
    row.attemptCount = 2;

    const expected = {
      id: 'd-e1',
      event_id: 'e1',
      event_type: 'video.asset.updated',
      object_type: 'asset',
      object_id: 'A',
      status: 'pending',
      attempts: [
        { number: 1, attempted_at: 1_700_000_001, response_status_code: 500, duration_ms: 20 },
        { number: 2, attempted_at: 1_700_000_030, response_status_code: 0, error: 'timed out after 5000 ms', duration_ms: 5003 },
      ],
      next_attempt_at: 1_700_000_060,
      created_at: 1_700_000_000,
      url: 'https://hooks.example/in',
    };
    expect(await service.get('d-e1')).toEqual(expected);
    expect(await service.get('e1')).toEqual(expected);
  });

  it('leaves next_attempt_at out once a delivery is done', async () => {
    const { store, service } = await setup();
    Object.assign(store.byEvent('e2'), { status: 'delivered', nextAttemptAt: null });
    Object.assign(store.byEvent('e3'), { status: 'failed', nextAttemptAt: null });
    expect(await service.get('e2')).not.toHaveProperty('next_attempt_at');
    expect((await service.get('e3')).status).toBe('failed');
  });

  it('answers NOT_FOUND for an unknown or empty id', async () => {
    const { service } = await setup();
    for (const id of ['nope', '']) {
      const error = await rejection(service.get(id));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
      expect(error.messages).toEqual(['Delivery not found']);
    }
  });

  it('lists newest first, pages, and filters by object id', async () => {
    const { service } = await setup();
    const ids = async (request: { limit: number; page: number; object_id?: string }) => (await service.list(request)).items.map((d) => d.event_id);
    expect(await ids({ limit: 0, page: 0 })).toEqual(['e3', 'e2', 'e1']);
    expect(await ids({ limit: 2, page: 2 })).toEqual(['e1']);
    expect(await ids({ limit: 10, page: 1, object_id: 'A' })).toEqual(['e3', 'e1']);
    expect(await ids({ limit: 10, page: 1, object_id: '' })).toEqual(['e3', 'e2', 'e1']);
    expect(await ids({ limit: 10, page: 1, object_id: 'Z' })).toEqual([]);
  });

  it('refuses a limit above 100', async () => {
    const { service } = await setup();
    const error = await rejection(service.list({ limit: 101, page: 1 }));
    expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
    expect(error.messages).toEqual(['limit: must be at most 100']);
  });
});
