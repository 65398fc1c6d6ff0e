import { DataSource } from 'typeorm';
import { EventBus, PlatformEvent } from './event-bus.port';
import { OutboxRelay } from './outbox-relay';

/** An outbox table in memory behind the relay's three queries (lock, select unpublished, mark published). */
function fakeOutbox() {
  const rows: Array<{ id: string; topic: string; key: string; payload: PlatformEvent; published: boolean }> = [];
  let transactions = 0;
  const manager = {
    query: (sql: string, params: unknown[]): Promise<unknown> => {
      if (sql.includes('pg_try_advisory_xact_lock')) return Promise.resolve([{ locked: true }]);
      if (sql.startsWith('SELECT')) return Promise.resolve(rows.filter((r) => !r.published).slice(0, params[0] as number));
      for (const id of params[0] as string[]) rows.find((r) => r.id === id)!.published = true;
      return Promise.resolve([]);
    },
  };
  const dataSource = {
    transaction: (work: (m: typeof manager) => Promise<unknown>) => {
      transactions++;
      return work(manager);
    },
    query: () => Promise.resolve([]),
  } as unknown as DataSource;
  return {
    dataSource,
    transactions: () => transactions,
    add(key: string) {
      const id = String(rows.length + 1);
      rows.push({ id, topic: 't.v1', key, payload: { id } as unknown as PlatformEvent, published: false });
    },
  };
}

function recordingBus(): EventBus & { published: string[] } {
  const published: string[] = [];
  return {
    published,
    start: () => Promise.resolve(),
    subscribe: () => Promise.resolve(),
    consumerLag: () => Promise.resolve([]),
    close: () => Promise.resolve(),
    publish: (_topic: string, key: string) => {
      published.push(key);
      return Promise.resolve();
    },
  };
}

describe('OutboxRelay batching of nudges', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('publishes at once after a quiet spell, then serves the nudges of a busy spell with one run per interval, in order', async () => {
    const outbox = fakeOutbox();
    const bus = recordingBus();
    const relay = new OutboxRelay(outbox.dataSource, 's', bus, 60_000, 10);
    relay.start();
    await jest.advanceTimersByTimeAsync(100); // the start-up run found nothing
    const quietRuns = outbox.transactions();

    outbox.add('a');
    relay.nudge();
    await jest.advanceTimersByTimeAsync(0);
    expect(bus.published).toEqual(['a']); // no waiting for a lone event
    expect(outbox.transactions()).toBe(quietRuns + 1);

    for (const key of ['b', 'c', 'd', 'e']) {
      outbox.add(key);
      relay.nudge();
      await jest.advanceTimersByTimeAsync(1);
    }
    expect(bus.published).toEqual(['a']); // within the interval of the last run: held together
    await jest.advanceTimersByTimeAsync(10);
    expect(bus.published).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(outbox.transactions()).toBe(quietRuns + 2);
    await relay.stop();
  });

  it('stops with a batch pending: nothing runs after stop', async () => {
    const outbox = fakeOutbox();
    const bus = recordingBus();
    const relay = new OutboxRelay(outbox.dataSource, 's', bus, 60_000, 10);
    relay.start();
    await jest.advanceTimersByTimeAsync(0);
    outbox.add('a');
    relay.nudge(); // within the interval of the start-up run: waits
    await relay.stop();
    await jest.advanceTimersByTimeAsync(100);
    expect(bus.published).toEqual([]);
  });
});
