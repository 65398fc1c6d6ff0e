import { Logger } from '@nestjs/common';
import type { EachMessagePayload, Kafka } from 'kafkajs';
import { eventually } from '@platform/testing';
import { sampleEvent } from './event-bus.contract';
import { DeliveryInfo } from './event-bus.port';
import { KafkaSubscriber, RawMessage } from './kafka-subscriber';

type EachMessage = (payload: EachMessagePayload) => Promise<void>;
type CrashListener = (event: { payload: { error: Error; restart: boolean } }) => void;

/** A kafkajs consumer stand-in: records what the subscriber does and lets a test crash it. */
class FakeConsumer {
  readonly events = { CRASH: 'consumer.crash' };
  eachMessage: EachMessage | undefined;
  subscribedTo: string[] = [];
  disconnected = false;
  private crashListener: CrashListener | undefined;

  constructor(private readonly failConnect = false) {}

  on(_event: string, listener: CrashListener) {
    this.crashListener = listener;
  }
  async connect() {
    if (this.failConnect) throw new Error('broker not reachable');
  }
  async subscribe({ topics }: { topics: string[] }) {
    this.subscribedTo = topics;
  }
  async run(options: { eachMessage: EachMessage }) {
    this.eachMessage = options.eachMessage;
  }
  async disconnect() {
    this.disconnected = true;
  }
  /** What kafkajs does on a crash: it disconnects, then emits CRASH saying whether it restarts. */
  crash(restart: boolean) {
    this.disconnected = true;
    this.crashListener?.({ payload: { error: new TypeError("Cannot read properties of undefined (reading '0')"), restart } });
  }
}

function message(topic: string, value: string | null): EachMessagePayload {
  return {
    topic,
    partition: 1,
    message: { key: Buffer.from('k'), value: value === null ? null : Buffer.from(value), headers: {}, offset: '7', timestamp: '0', attributes: 0 },
    heartbeat: async () => undefined,
    pause: () => () => undefined,
  };
}

let loggedErrors: jest.SpiedFunction<Logger['error']>;
beforeAll(() => {
  loggedErrors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
});
afterAll(() => jest.restoreAllMocks());

describe('KafkaSubscriber delivery', () => {
  async function subscriber(
    handle: (attempt: number) => Promise<void>,
    produce: (topic: string, m: RawMessage) => Promise<void>,
    topic = 'video.asset.ready.v1',
  ) {
    const consumer = new FakeConsumer();
    const kafka = { consumer: () => consumer } as unknown as Kafka;
    const infos: DeliveryInfo[] = [];
    const sub = new KafkaSubscriber(
      { group: 'g', topics: [topic], handle: async (_e, info) => (infos.push(info), handle(info.attempt)) },
      { kafka, maxAttempts: 3, produce },
    );
    await sub.start();
    const deliver = (value: string | null) => consumer.eachMessage!(message(topic, value));
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

describe('KafkaSubscriber after a crash', () => {
  /** Each call to kafka.consumer() hands out the next fake; `failing` says which ones cannot connect. */
  function cluster(failing: number[] = []) {
    const consumers: FakeConsumer[] = [];
    const groups: string[] = [];
    const kafka = {
      consumer: ({ groupId }: { groupId: string }) => {
        groups.push(groupId);
        const consumer = new FakeConsumer(failing.includes(consumers.length));
        consumers.push(consumer);
        return consumer;
      },
    } as unknown as Kafka;
    const handled: string[] = [];
    const sub = new KafkaSubscriber(
      { group: 'webhooks', topics: ['video.asset.ready.v1'], handle: async (event) => void handled.push(event.id) },
      { kafka, maxAttempts: 1, produce: async () => undefined },
    );
    return { consumers, groups, handled, sub };
  }

  it('reads on with a new consumer in the same group when kafkajs will not restart the crashed one', async () => {
    const { consumers, groups, handled, sub } = cluster();
    await sub.start();
    consumers[0].crash(false);
    await eventually(() => expect(consumers[1]?.eachMessage).toBeDefined(), { timeoutMs: 2000 });
    expect(groups).toEqual(['webhooks', 'webhooks']);
    expect(consumers[1].subscribedTo).toEqual(['video.asset.ready.v1']);
    const event = sampleEvent('k');
    await consumers[1].eachMessage!(message('video.asset.ready.v1', JSON.stringify(event)));
    expect(handled).toEqual([event.id]);
    expect(loggedErrors).toHaveBeenCalledWith(expect.stringContaining('reading video.asset.ready.v1 with a new consumer'));
    await sub.stop();
    expect(consumers[1].disconnected).toBe(true);
  });

  it('leaves a crash that kafkajs restarts to kafkajs', async () => {
    const { consumers, sub } = cluster();
    await sub.start();
    consumers[0].crash(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(consumers).toHaveLength(1);
    await sub.stop();
  });

  it('keeps trying when the new consumer cannot start, with a growing delay', async () => {
    const { consumers, sub } = cluster([1, 2]);
    await sub.start();
    consumers[0].crash(false);
    await eventually(() => expect(consumers[3]?.eachMessage).toBeDefined(), { timeoutMs: 2000 });
    expect(consumers.map((c) => c.eachMessage !== undefined)).toEqual([true, false, false, true]);
    expect(consumers[1].disconnected && consumers[2].disconnected).toBe(true);
    expect(loggedErrors).toHaveBeenCalledWith(expect.stringContaining('starting a new consumer failed, trying again: broker not reachable'));
    await sub.stop();
  });

  it('builds no new consumer once stopped, even when the crash came first', async () => {
    const { consumers, sub } = cluster();
    await sub.start();
    consumers[0].crash(false);
    await sub.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(consumers).toHaveLength(1);
  });

  it('ignores a crash reported while stopping', async () => {
    const { consumers, sub } = cluster();
    await sub.start();
    await sub.stop();
    consumers[0].crash(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(consumers).toHaveLength(1);
  });
});
