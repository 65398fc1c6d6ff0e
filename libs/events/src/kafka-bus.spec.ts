import { Logger } from '@nestjs/common';
import type { EachMessagePayload, Kafka } from 'kafkajs';
import { sampleEvent } from './event-bus.contract';
import { DeliveryInfo } from './event-bus.port';
import { assignPartitions } from './kafka-assigner';
import { KafkaBus } from './kafka-bus';
import { deadLetterHeaders, eventHeaders, headerText, parseEnvelope } from './kafka-envelope';
import { KafkaSubscriber, RawMessage } from './kafka-subscriber';

describe('parseEnvelope', () => {
  const valid = sampleEvent('obj-1');

  it('accepts a PlatformEvent and returns it unchanged', () => {
    expect(parseEnvelope(Buffer.from(JSON.stringify(valid)))).toEqual({ ok: true, event: valid });
  });

  it.each([
    [null, 'empty message value'],
    ['', 'empty message value'],
    ['{not json', 'message value is not JSON'],
    ['[1,2]', 'envelope is not a JSON object'],
    [JSON.stringify({ ...valid, id: '' }), 'envelope id must be a non-empty string'],
    [JSON.stringify({ ...valid, type: 7 }), 'envelope type must be a non-empty string'],
    [JSON.stringify({ ...valid, occurred_at: 'yesterday' }), 'envelope occurred_at must be an ISO 8601 timestamp'],
    [JSON.stringify({ ...valid, object: { type: 'thing' } }), 'envelope object must have a non-empty type and id'],
    [JSON.stringify({ ...valid, object: undefined }), 'envelope object must have a non-empty type and id'],
    [JSON.stringify({ ...valid, data: [1] }), 'envelope data must be a JSON object'],
    [JSON.stringify({ ...valid, data: null }), 'envelope data must be a JSON object'],
  ])('rejects %s as poison: %s', (value, reason) => {
    expect(parseEnvelope(value === null ? null : Buffer.from(value))).toEqual({ ok: false, reason });
  });
});

describe('headers', () => {
  it('names the event id and type on every published message', () => {
    const event = sampleEvent('x');
    expect(eventHeaders(event)).toEqual({ 'event-id': event.id, 'event-type': 'test.thing.updated' });
  });

  it('keeps the original headers of a dead letter and adds why, where from and for which group', () => {
    const headers = deadLetterHeaders(
      { 'event-id': Buffer.from('e1'), 'event-type': Buffer.from('video.asset.ready') },
      { reason: 'handler failed 5 times: boom', group: 'webhooks', topic: 'video.asset.ready.v1', partition: 2, offset: '41' },
    );
    expect(Object.fromEntries(Object.keys(headers).map((k) => [k, headerText(headers, k)]))).toEqual({
      'event-id': 'e1',
      'event-type': 'video.asset.ready',
      'dlq-reason': 'handler failed 5 times: boom',
      'dlq-group': 'webhooks',
      'original-topic': 'video.asset.ready.v1',
      'original-partition': '2',
      'original-offset': '41',
    });
  });
});

describe('assignPartitions', () => {
  it('spreads the partitions of a topic over its members, least loaded first', () => {
    const members = [
      { memberId: 'm-b', topics: ['t'] },
      { memberId: 'm-a', topics: ['t'] },
    ];
    expect(assignPartitions(members, { t: [2, 0, 1] })).toEqual({ 'm-a': { t: [0, 2] }, 'm-b': { t: [1] } });
  });

  it('gives a member only topics it subscribed to', () => {
    const members = [
      { memberId: 'one', topics: ['x'] },
      { memberId: 'two', topics: ['y'] },
      { memberId: 'three', topics: ['x', 'y'] },
    ];
    expect(assignPartitions(members, { x: [0, 1, 2], y: [0, 1, 2] })).toEqual({
      one: { x: [0, 2] },
      three: { x: [1], y: [1] },
      two: { y: [0, 2] },
    });
  });

  it('leaves a member without partitions when there are more members than partitions', () => {
    const members = ['a', 'b', 'c'].map((memberId) => ({ memberId, topics: ['t'] }));
    expect(assignPartitions(members, { t: [0, 1] })).toEqual({ a: { t: [0] }, b: { t: [1] }, c: {} });
  });
});

describe('KafkaSubscriber', () => {
  type EachMessage = (payload: EachMessagePayload) => Promise<void>;

  let loggedErrors: jest.SpiedFunction<Logger['error']>;
  beforeAll(() => {
    loggedErrors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterAll(() => jest.restoreAllMocks());

  /** A kafkajs stand-in that hands us the eachMessage callback the subscriber registers. */
  async function subscriber(
    handle: (attempt: number) => Promise<void>,
    produce: (topic: string, m: RawMessage) => Promise<void>,
    topic = 'video.asset.ready.v1',
  ) {
    let eachMessage: EachMessage | undefined;
    const consumer = {
      events: { CRASH: 'consumer.crash' },
      on: () => undefined,
      connect: async () => undefined,
      subscribe: async () => undefined,
      run: async (options: { eachMessage: EachMessage }) => void (eachMessage = options.eachMessage),
      disconnect: async () => undefined,
    };
    const kafka = { consumer: () => consumer } as unknown as Kafka;
    const infos: DeliveryInfo[] = [];
    const sub = new KafkaSubscriber(
      { group: 'g', topics: [topic], handle: async (_e, info) => (infos.push(info), handle(info.attempt)) },
      { kafka, maxAttempts: 3, produce },
    );
    await sub.start();
    const deliver = (value: string | null) =>
      eachMessage!({
        topic,
        partition: 1,
        message: { key: Buffer.from('k'), value: value === null ? null : Buffer.from(value), headers: {}, offset: '7', timestamp: '0', attributes: 0 },
        heartbeat: async () => undefined,
        pause: () => () => undefined,
      });
    return { deliver, infos };
  }

  it('retries a failing handler with the attempt number and does not dead-letter once it succeeds', async () => {
    const produce = jest.fn(async () => undefined);
    const { deliver, infos } = await subscriber(async (attempt) => {
      if (attempt < 3) throw new Error('transient');
    }, produce);
    await deliver(JSON.stringify(sampleEvent('k')));
    expect(infos).toEqual([1, 2, 3].map((attempt) => ({ topic: 'video.asset.ready.v1', key: 'k', attempt })));
    expect(produce).not.toHaveBeenCalled();
  });

  it('dead-letters the original message after the last attempt and returns so the offset commits', async () => {
    const produce = jest.fn(async (_topic: string, _m: RawMessage) => undefined);
    const body = JSON.stringify(sampleEvent('k'));
    const { deliver, infos } = await subscriber(async () => {
      throw new Error('boom');
    }, produce);
    await expect(deliver(body)).resolves.toBeUndefined();
    expect(infos).toHaveLength(3);
    expect(produce).toHaveBeenCalledTimes(1);
    const [topic, message] = produce.mock.calls[0];
    expect(topic).toBe('video.asset.ready.v1.dlq');
    expect(message.value?.toString()).toBe(body);
    expect(message.key?.toString()).toBe('k');
    expect(message.headers).toMatchObject({ 'dlq-reason': 'handler failed 3 times: boom', 'dlq-group': 'g', 'original-topic': 'video.asset.ready.v1' });
  });

  it('sends poison straight to the dead-letter topic without calling the handler', async () => {
    const produce = jest.fn(async (_topic: string, _m: RawMessage) => undefined);
    const { deliver, infos } = await subscriber(async () => undefined, produce);
    await deliver('{"id":');
    expect(infos).toEqual([]);
    expect(produce.mock.calls[0][1].headers['dlq-reason']).toBe('poison message: message value is not JSON');
  });

  it('throws when the dead letter cannot be written, so the offset does not commit', async () => {
    const { deliver } = await subscriber(
      async () => {
        throw new Error('boom');
      },
      async () => {
        throw new Error('broker gone');
      },
    );
    await expect(deliver(JSON.stringify(sampleEvent('k')))).rejects.toThrow('broker gone');
  });

  it('does not dead-letter what fails on a dead-letter topic (logs it instead)', async () => {
    const produce = jest.fn(async () => undefined);
    const { deliver, infos } = await subscriber(
      async () => {
        throw new Error('boom');
      },
      produce,
      'video.asset.ready.v1.dlq',
    );
    await expect(deliver(JSON.stringify(sampleEvent('k')))).resolves.toBeUndefined();
    expect(infos).toHaveLength(3);
    expect(produce).not.toHaveBeenCalled();
    expect(loggedErrors).toHaveBeenCalledWith(expect.stringContaining('skipped on a dead-letter topic: handler failed 3 times: boom'));
  });
});

describe('KafkaBus', () => {
  it('connects lazily, closes idempotently and refuses to publish or subscribe after close', async () => {
    // Nothing listens on port 1: any connection attempt would fail the test.
    const bus = new KafkaBus({ brokers: ['127.0.0.1:1'], clientId: 'unit' }, 3);
    await bus.close();
    await bus.close();
    await expect(bus.publish('t.v1', 'k', sampleEvent('k'))).rejects.toThrow('event bus is closed');
    await expect(bus.subscribe({ group: 'g', topics: ['t.v1'], handle: async () => undefined })).rejects.toThrow('event bus is closed');
  });
});
