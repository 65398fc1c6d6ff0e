import { loadConfig } from '@platform/config';
import { DELIVERIES_STREAM, DeliveryItem, EventBus, PlatformEvent, validateDataEvent } from '@platform/events';
import { DeliveryMeter } from './delivery-meter';
import { DeliveryReporter, MAX_BATCH_ITEMS } from './delivery-reporter';

const item = (i: number): DeliveryItem => ({
  hour: '2026-11-27T13:00:00.000Z',
  playback_id: `pb${i}`,
  asset_id: 'a1',
  live_stream_id: null,
  resolution_tier: '720p',
  media_seconds: 4,
  bytes: 100,
  segments: 1,
});

function setup(drains: DeliveryItem[][]) {
  const published: Array<{ topic: string; key: string; event: PlatformEvent }> = [];
  let failures = 0;
  const bus = {
    publish: jest.fn(async (topic: string, key: string, event: PlatformEvent) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('broker down');
      }
      published.push({ topic, key, event });
    }),
  } as unknown as EventBus;
  const settled = jest.fn(async () => undefined);
  const meter = { drain: jest.fn(() => drains.shift() ?? []), settled } as unknown as DeliveryMeter;
  const config = loadConfig({ DELIVERY_REPORT_MS: '60000' });
  const reporter = new DeliveryReporter(meter, bus, config);
  return { reporter, published, settled, failNext: (n: number) => (failures = n) };
}

describe('DeliveryReporter', () => {
  it('publishes what was counted as data.deliveries batches of at most MAX_BATCH_ITEMS, each a valid message', async () => {
    const { reporter, published } = setup([Array.from({ length: MAX_BATCH_ITEMS + 1 }, (_, i) => item(i))]);
    await reporter.report();
    expect(published.map((p) => p.topic)).toEqual(['data.deliveries.v1', 'data.deliveries.v1']);
    expect(published.map((p) => (p.event.data.items as unknown[]).length)).toEqual([MAX_BATCH_ITEMS, 1]);
    for (const p of published) {
      expect(validateDataEvent(DELIVERIES_STREAM)(p.event, p.topic)).toBeUndefined();
      expect(p.key).toBe(p.event.data.id);
    }
    await reporter.report();
    expect(published).toHaveLength(2); // nothing new: nothing sent
  });

  it('tries a refused batch again, with the same id (the consumer counts it once)', async () => {
    const { reporter, published, failNext } = setup([[item(1)], [item(2)]]);
    failNext(1);
    await reporter.report();
    expect(published).toHaveLength(0);
    await reporter.report();
    expect(published).toHaveLength(2);
    const ids = published.map((p) => p.event.data.id);
    expect(new Set(ids).size).toBe(2);
    expect((published[0].event.data.items as DeliveryItem[])[0].playback_id).toBe('pb1');
  });

  it('reports once more at shutdown, after the segments still being resolved', async () => {
    const { reporter, published, settled } = setup([[item(1)]]);
    reporter.onApplicationBootstrap();
    await reporter.onApplicationShutdown();
    expect(settled).toHaveBeenCalled();
    expect(published).toHaveLength(1);
  });
});
