import { randomUUID } from 'node:crypto';
import { IHeaders, Kafka, logLevel, Partitioners } from 'kafkajs';
import { eventually } from '@platform/testing';
import { describeEventBusContract, sampleEvent } from './event-bus.contract';
import { KafkaBus } from './kafka-bus';
import { nestLogCreator } from './kafka-logger';

const brokersEnv = process.env.TEST_KAFKA_BROKERS;
if (!brokersEnv) {
  throw new Error(
    'TEST_KAFKA_BROKERS is not set: start a broker (scripts/infra/kafka.sh start) and export TEST_KAFKA_BROKERS=$(scripts/infra/kafka.sh brokers)',
  );
}
const brokers = brokersEnv.split(',').map((b) => b.trim());

// Group joins and rebalances take seconds on a real broker.
jest.setTimeout(90_000);

const newBus = (clientId = 'contract-test') => new KafkaBus({ brokers, clientId }, 3);
const uniqueTopic = () => `test.kafka.${randomUUID().slice(0, 8)}.v1`;

describeEventBusContract('kafka', async () => newBus(), 60_000);

interface RawRecord {
  key: string | undefined;
  value: string | undefined;
  headers: Record<string, string>;
}

function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]));
}

describe('KafkaBus on a real broker', () => {
  const kafka = new Kafka({ clientId: 'raw-test', brokers, logLevel: logLevel.WARN, logCreator: nestLogCreator });
  const cleanup: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function track(bus: KafkaBus): Promise<KafkaBus> {
    cleanup.push(() => bus.close());
    return bus;
  }

  /** Reads a topic from its beginning with a fresh group, bypassing the bus. */
  async function readRaw(topic: string, count: number): Promise<RawRecord[]> {
    const consumer = kafka.consumer({ groupId: `raw-${randomUUID()}`, sessionTimeout: 10_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 500 });
    cleanup.push(() => consumer.disconnect());
    const got: RawRecord[] = [];
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) =>
        void got.push({ key: message.key?.toString(), value: message.value?.toString(), headers: textHeaders(message.headers) }),
    });
    await eventually(() => expect(got.length).toBeGreaterThanOrEqual(count), { timeoutMs: 60_000 });
    return got;
  }

  it('writes the event as JSON with its key and event-id / event-type headers', async () => {
    const bus = await track(newBus());
    const topic = uniqueTopic();
    const event = sampleEvent('obj-7');
    await bus.publish(topic, 'obj-7', event);
    const [record] = await readRaw(topic, 1);
    expect(record.key).toBe('obj-7');
    expect(JSON.parse(record.value!)).toEqual(event);
    expect(record.headers).toEqual({ 'event-id': event.id, 'event-type': 'test.thing.updated' });
  });

  it('publishes concurrently without losing or duplicating events', async () => {
    const bus = await track(newBus());
    const topic = uniqueTopic();
    const events = Array.from({ length: 40 }, (_, i) => sampleEvent(`c${i % 5}`, i));
    await Promise.all(events.map((e) => bus.publish(topic, e.object.id, e)));
    const records = await readRaw(topic, 40);
    expect(records.map((r) => (JSON.parse(r.value!) as { id: string }).id).sort()).toEqual(events.map((e) => e.id).sort());
  });

  it('starts a subscription made after start at once', async () => {
    const bus = await track(newBus());
    const topic = uniqueTopic();
    await bus.start();
    const got: string[] = [];
    await bus.subscribe({ group: `late-${randomUUID().slice(0, 8)}`, topics: [topic], handle: async (e) => void got.push(e.id) });
    const event = sampleEvent('late');
    await bus.publish(topic, 'late', event);
    await eventually(() => expect(got).toEqual([event.id]), { timeoutMs: 60_000 });
  });

  it('keeps installations with different namespaces apart on one cluster (same group and topic names)', async () => {
    const run = randomUUID().slice(0, 8);
    const a = await track(new KafkaBus({ brokers, clientId: 'ns-a', namespace: `a-${run}` }, 3));
    const b = await track(new KafkaBus({ brokers, clientId: 'ns-b', namespace: `b-${run}` }, 3));
    const topic = uniqueTopic();
    const got = { a: [] as Array<[string, string]>, b: [] as Array<[string, string]> };
    await a.subscribe({ group: 'webhooks', topics: [topic], handle: async (e, info) => void got.a.push([e.id, info.topic]) });
    await b.subscribe({ group: 'webhooks', topics: [topic], handle: async (e, info) => void got.b.push([e.id, info.topic]) });
    await Promise.all([a.start(), b.start()]);
    const [ea, eb] = [sampleEvent('a'), sampleEvent('b')];
    await a.publish(topic, 'a', ea);
    await b.publish(topic, 'b', eb);
    await eventually(() => expect([got.a, got.b]).toEqual([[[ea.id, topic]], [[eb.id, topic]]]), { timeoutMs: 60_000 });
    // on the cluster, the topic carries the namespace
    expect((await readRaw(`a-${run}.${topic}`, 1)).map((r) => JSON.parse(r.value!).id)).toEqual([ea.id]);
  });

  it('sends malformed messages straight to the dead-letter topic and keeps consuming', async () => {
    const bus = await track(newBus());
    const topic = uniqueTopic();
    const handled: string[] = [];
    await bus.subscribe({ group: 'poison-test', topics: [topic], handle: async (e) => void handled.push(e.id) });
    await bus.start();

    const producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    cleanup.push(() => producer.disconnect());
    const missingObject = JSON.stringify({ ...sampleEvent('p'), object: undefined });
    await producer.send({
      topic,
      acks: -1,
      messages: [
        { key: 'p', value: 'not json {', headers: { 'event-id': 'x1' } },
        { key: 'p', value: missingObject },
      ],
    });
    const good = sampleEvent('p');
    await bus.publish(topic, 'p', good);

    await eventually(() => expect(handled).toEqual([good.id]), { timeoutMs: 60_000 });
    const dead = await readRaw(`${topic}.dlq`, 2);
    expect(dead).toHaveLength(2);
    expect(dead[0]).toMatchObject({
      key: 'p',
      value: 'not json {',
      headers: { 'event-id': 'x1', 'dlq-reason': 'poison message: message value is not JSON', 'dlq-group': 'poison-test', 'original-topic': topic },
    });
    expect(dead[1].value).toBe(missingObject);
    expect(dead[1].headers['dlq-reason']).toBe('poison message: envelope object must have a non-empty type and id');
    expect(dead[1].headers['original-topic']).toBe(topic);
  });

  it('dead-letters a failing event with the reason and group in its headers', async () => {
    const bus = await track(newBus());
    const topic = uniqueTopic();
    let tries = 0;
    await bus.subscribe({
      group: 'always-fails',
      topics: [topic],
      handle: async () => {
        tries++;
        throw new Error('database unavailable');
      },
    });
    await bus.start();
    const event = sampleEvent('d');
    await bus.publish(topic, 'd', event);
    const [dead] = await readRaw(`${topic}.dlq`, 1);
    expect(tries).toBe(3);
    expect(JSON.parse(dead.value!)).toEqual(event);
    expect(dead.key).toBe('d');
    expect(dead.headers).toMatchObject({
      'event-id': event.id,
      'event-type': event.type,
      'dlq-reason': 'handler failed 3 times: database unavailable',
      'dlq-group': 'always-fails',
      'original-topic': topic,
    });
  });

  it('dead-letters an event its subscription refuses at once, with `invalid event:` and the reason in its headers', async () => {
    const bus = await track(newBus());
    const topic = uniqueTopic();
    let tries = 0;
    await bus.subscribe({
      group: 'refuses-all',
      topics: [topic],
      validate: () => 'not for us',
      handle: () => Promise.resolve(void tries++),
    });
    await bus.start();
    const event = sampleEvent('r');
    await bus.publish(topic, 'r', event);
    const [dead] = await readRaw(`${topic}.dlq`, 1);
    expect(tries).toBe(0);
    expect(JSON.parse(dead.value!)).toEqual(event);
    expect(dead.headers).toMatchObject({
      'event-id': event.id,
      'dlq-reason': 'invalid event: not for us',
      'dlq-group': 'refuses-all',
      'original-topic': topic,
    });
  });

  it('resumes a group from its committed offset after the previous member closed', async () => {
    const topic = uniqueTopic();
    const group = `resume-${randomUUID().slice(0, 8)}`;
    const first: string[] = [];
    const bus1 = await track(newBus('first'));
    await bus1.subscribe({ group, topics: [topic], handle: async (e) => void first.push(e.id) });
    await bus1.start();
    // One key: one partition, so a redelivery of the old events would arrive before the new ones.
    const old = [sampleEvent('same', 1), sampleEvent('same', 2), sampleEvent('same', 3)];
    for (const e of old) await bus1.publish(topic, 'same', e);
    await eventually(() => expect(first).toEqual(old.map((e) => e.id)), { timeoutMs: 60_000 });
    await bus1.close();

    const bus2 = await track(newBus('second'));
    const later = [sampleEvent('same', 4), sampleEvent('same', 5)];
    for (const e of later) await bus2.publish(topic, 'same', e);
    const second: string[] = [];
    await bus2.subscribe({ group, topics: [topic], handle: async (e) => void second.push(e.id) });
    await bus2.start();
    await eventually(() => expect(second).toContain(later[1].id), { timeoutMs: 60_000 });
    expect(second).toEqual(later.map((e) => e.id));
  });

  it('gives members of one group with different topics only their own topics', async () => {
    const bus = await track(newBus());
    const [t1, t2] = [uniqueTopic(), uniqueTopic()];
    const got1: string[] = [];
    const got2: string[] = [];
    const group = `mixed-${randomUUID().slice(0, 8)}`;
    await bus.subscribe({ group, topics: [t1], handle: async (e) => void got1.push(e.object.id) });
    await bus.subscribe({ group, topics: [t2], handle: async (e) => void got2.push(e.object.id) });
    await bus.start();
    for (let i = 0; i < 6; i++) {
      await bus.publish(t1, `a${i}`, sampleEvent(`a${i}`));
      await bus.publish(t2, `b${i}`, sampleEvent(`b${i}`));
    }
    await eventually(
      () => {
        expect([...got1].sort()).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
        expect([...got2].sort()).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5']);
      },
      { timeoutMs: 60_000 },
    );
  });
});
