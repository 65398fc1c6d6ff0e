import { eventually } from '@platform/testing';
import { describeEventBusContract, sampleEvent } from './event-bus.contract';
import { InProcessBus } from './in-process-bus';

describeEventBusContract('in-process', async () => new InProcessBus(3));

describe('InProcessBus', () => {
  it('holds events until started, so services booting later miss nothing', async () => {
    const bus = new InProcessBus();
    const got: string[] = [];
    await bus.publish('t.v1', 'k', sampleEvent('k'));
    await bus.subscribe({ group: 'late', topics: ['t.v1'], handle: async (e) => void got.push(e.object.id) });
    expect(got).toEqual([]);
    await bus.start();
    await eventually(() => expect(got).toEqual(['k']), { timeoutMs: 15_000 });
    await bus.close();
  });

  it('refuses to publish after close', async () => {
    const bus = new InProcessBus();
    await bus.close();
    await expect(bus.publish('t.v1', 'k', sampleEvent('k'))).rejects.toThrow(/closed/);
  });
});
