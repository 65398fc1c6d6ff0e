import { loadConfig } from '@platform/config';
import { metricsText } from '@platform/metrics';
import { sampleEvent } from './event-bus.contract';
import { closeEventBus, getEventBus } from './event-bus.factory';

describe('the process bus', () => {
  afterEach(() => closeEventBus());

  it('is one per process, and serves its consumer lag as bus_consumer_lag until closed', async () => {
    const bus = getEventBus(loadConfig({}));
    expect(getEventBus(loadConfig({}))).toBe(bus);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    await bus.subscribe({ group: 'metered', topics: ['test.metered.v1'], handle: () => gate });
    await bus.start();
    await bus.publish('test.metered.v1', 'k', sampleEvent('k', 1));
    await bus.publish('test.metered.v1', 'k', sampleEvent('k', 2));
    expect(await metricsText()).toContain('bus_consumer_lag{group="metered",topic="test.metered.v1"} 2');
    release();
    await closeEventBus();
    expect(await metricsText()).not.toContain('bus_consumer_lag{group="metered"');
  });
});
