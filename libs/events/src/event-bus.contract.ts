import { randomUUID } from 'node:crypto';
import { eventually } from '@platform/testing';
import { DeliveryInfo, EventBus, EventHandler, PlatformEvent } from './event-bus.port';

/** A handler that keeps what it is given. */
export function collectInto<T>(list: T[], pick: (event: PlatformEvent, info: DeliveryInfo) => T): EventHandler {
  return (event, info) => {
    list.push(pick(event, info));
    return Promise.resolve();
  };
}

export function sampleEvent(objectId: string, n = 0): PlatformEvent {
  return {
    id: randomUUID(),
    type: 'test.thing.updated',
    occurred_at: new Date().toISOString(),
    object: { type: 'thing', id: objectId },
    data: { n, nested: { list: [1, 'two', null], flag: true } },
  };
}

/**
 * The behaviour every EventBus adapter must have; run against the in-process bus in
 * unit tests and against a real Kafka broker in integration tests.
 */
export function describeEventBusContract(name: string, makeBus: () => Promise<EventBus>, timeoutMs = 15_000): void {
  describe(`EventBus contract: ${name}`, () => {
    let bus: EventBus;
    const unique = () => `test.${randomUUID().slice(0, 8)}.v1`;

    beforeEach(async () => {
      bus = await makeBus();
    });
    afterEach(async () => {
      await bus.close();
    });

    it('delivers a published event unchanged, with topic, key and first attempt', async () => {
      const topic = unique();
      const got: Array<[PlatformEvent, DeliveryInfo]> = [];
      await bus.subscribe({ group: 'g1', topics: [topic], handle: collectInto(got, (e, i) => [e, i]) });
      await bus.start();
      const event = sampleEvent('obj-1');
      await bus.publish(topic, 'obj-1', event);
      await eventually(() => expect(got).toHaveLength(1), { timeoutMs });
      expect(got[0][0]).toEqual(event);
      expect(got[0][1]).toEqual({ topic, key: 'obj-1', attempt: 1 });
    });

    it('gives every group each event, and shares a group between its members', async () => {
      const topic = unique();
      const a: string[] = [];
      const b1: string[] = [];
      const b2: string[] = [];
      await bus.subscribe({ group: 'a', topics: [topic], handle: collectInto(a, (e) => e.id) });
      await bus.subscribe({ group: 'b', topics: [topic], handle: collectInto(b1, (e) => e.id) });
      await bus.subscribe({ group: 'b', topics: [topic], handle: collectInto(b2, (e) => e.id) });
      await bus.start();
      const events = Array.from({ length: 12 }, (_, i) => sampleEvent(`key-${i}`, i));
      for (const e of events) await bus.publish(topic, e.object.id, e);
      await eventually(
        () => {
          expect(a).toHaveLength(12);
          expect(b1.length + b2.length).toBe(12);
        },
        { timeoutMs },
      );
      expect(new Set([...b1, ...b2])).toEqual(new Set(events.map((e) => e.id)));
    });

    it('keeps the order of events with the same key', async () => {
      const topic = unique();
      const seen: number[] = [];
      await bus.subscribe({
        group: 'ordered',
        topics: [topic],
        handle: async (e) => {
          await new Promise((r) => setTimeout(r, (e.data as { n: number }).n % 3));
          seen.push((e.data as { n: number }).n);
        },
      });
      await bus.start();
      for (let n = 0; n < 20; n++) await bus.publish(topic, 'same-key', sampleEvent('same-key', n));
      await eventually(() => expect(seen).toHaveLength(20), { timeoutMs });
      expect(seen).toEqual(Array.from({ length: 20 }, (_, n) => n));
    });

    it('retries a failing handler and counts the attempts', async () => {
      const topic = unique();
      const attempts: number[] = [];
      let handled = 0;
      await bus.subscribe({
        group: 'flaky',
        topics: [topic],
        handle: (_e, info) => {
          attempts.push(info.attempt);
          if (info.attempt < 3) return Promise.reject(new Error('transient'));
          handled++;
          return Promise.resolve();
        },
      });
      await bus.start();
      await bus.publish(topic, 'k', sampleEvent('k'));
      await eventually(() => expect(handled).toBe(1), { timeoutMs });
      expect(attempts).toEqual([1, 2, 3]);
    });

    it('sends an event that keeps failing to the dead-letter topic, with the reason', async () => {
      const topic = unique();
      const dead: Array<[PlatformEvent, DeliveryInfo]> = [];
      let tries = 0;
      await bus.subscribe({
        group: 'poisoned',
        topics: [topic],
        handle: () => {
          tries++;
          return Promise.reject(new Error('always'));
        },
      });
      await bus.subscribe({ group: 'dlq-reader', topics: [`${topic}.dlq`], handle: collectInto(dead, (e, i) => [e, i]) });
      await bus.start();
      const event = sampleEvent('bad');
      await bus.publish(topic, 'bad', event);
      await eventually(() => expect(dead).toHaveLength(1), { timeoutMs });
      expect(dead[0][0]).toEqual(event);
      expect(tries).toBeGreaterThanOrEqual(2);
      expect(dead[0][1]).toMatchObject({
        topic: `${topic}.dlq`,
        key: 'bad',
        deadLetter: { reason: `handler failed ${tries} times: always`, group: 'poisoned', topic },
      });
    });

    it('dead-letters an event its subscription refuses at once, with the reason, and handles the valid ones', async () => {
      const topic = unique();
      const handled: number[] = [];
      const dead: Array<[PlatformEvent, DeliveryInfo]> = [];
      await bus.subscribe({
        group: 'validating',
        topics: [topic],
        validate: (e, t) => ((e.data as { n: number }).n === 1 ? `n must not be 1 (on ${t})` : undefined),
        handle: collectInto(handled, (e) => (e.data as { n: number }).n),
      });
      await bus.subscribe({ group: 'dlq-reader', topics: [`${topic}.dlq`], handle: collectInto(dead, (e, i) => [e, i]) });
      await bus.start();
      const events = [sampleEvent('v', 0), sampleEvent('v', 1), sampleEvent('v', 2)];
      for (const e of events) await bus.publish(topic, 'v', e);
      await eventually(
        () => {
          expect(handled).toEqual([0, 2]);
          expect(dead).toHaveLength(1);
        },
        { timeoutMs },
      );
      expect(dead[0][0]).toEqual(events[1]);
      expect(dead[0][1].deadLetter).toEqual({ reason: `invalid event: n must not be 1 (on ${topic})`, group: 'validating', topic });
      expect(dead[0][1].attempt).toBe(1);
    });

    it('dead-letters what is not an event envelope at once, before any validation or handler, and goes on', async () => {
      const topic = unique();
      const handled: string[] = [];
      const validated: string[] = [];
      await bus.subscribe({
        group: 'enveloped',
        topics: [topic],
        validate: (e) => void validated.push(e.id),
        handle: collectInto(handled, (e) => e.id),
      });
      await bus.start();
      // what a reader of the dead-letter topic cannot take as an event either: it is logged there
      // with its reason (on Kafka also kept, with `dlq-reason` and the other headers)
      const malformed = { ...sampleEvent('m'), object: { type: 'thing' } } as unknown as PlatformEvent;
      const good = sampleEvent('m');
      await bus.publish(topic, 'm', malformed);
      await bus.publish(topic, 'm', good);
      await eventually(() => expect(handled).toEqual([good.id]), { timeoutMs });
      expect(validated).toEqual([good.id]);
    });

    it('delivers events published before start once it starts', async () => {
      const topic = unique();
      const got: string[] = [];
      await bus.subscribe({ group: 'late', topics: [topic], handle: collectInto(got, (e) => e.id) });
      const event = sampleEvent('early');
      await bus.publish(topic, 'early', event);
      await bus.start();
      await eventually(() => expect(got).toEqual([event.id]), { timeoutMs });
    });

    it("reports a group's lag per topic: events published and not handled yet, 0 once handled", async () => {
      const [topic, quiet] = [unique(), unique()];
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const handled: string[] = [];
      await bus.subscribe({
        group: 'lagging',
        topics: [topic, quiet],
        handle: async (event) => {
          await gate;
          handled.push(event.id);
        },
      });
      await bus.start();
      for (let n = 0; n < 3; n++) await bus.publish(topic, 'same-key', sampleEvent('obj-lag', n));
      const lagOf = async () => (await bus.consumerLag()).filter((l) => l.group === 'lagging').sort((a, b) => a.topic.localeCompare(b.topic));
      const expected = (lag: number) =>
        [
          { group: 'lagging', topic, lag },
          { group: 'lagging', topic: quiet, lag: 0 },
        ].sort((a, b) => a.topic.localeCompare(b.topic));
      expect(await lagOf()).toEqual(expected(3));
      release();
      await eventually(() => expect(handled).toHaveLength(3), { timeoutMs });
      await eventually(async () => expect(await lagOf()).toEqual(expected(0)), { timeoutMs, intervalMs: 100 });
    });
  });
}
