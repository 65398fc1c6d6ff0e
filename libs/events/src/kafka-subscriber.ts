import { Logger } from '@nestjs/common';
import type { Consumer, EachMessagePayload, IHeaders, Kafka } from 'kafkajs';
import { PlatformEvent, Subscription } from './event-bus.port';
import { TopicAwareAssigner } from './kafka-assigner';
import { DEAD_LETTER_REASON } from './event-envelope';
import { platformMetrics } from '@platform/metrics';
import { deadLetterHeaders, deadLetterInfoOf, deadLetterTopicOf, errorText, isDeadLetterTopic, parseEnvelope } from './kafka-envelope';
import { retryDelayMs, sleep } from './retry-policy';

/**
 * Consumer timings for small deployments (and a contract suite that starts and stops
 * groups every test): a dead member is noticed and a joining one admitted within seconds.
 * maxWaitTime bounds how long an idle consumer waits in a fetch — kafkajs only heartbeats
 * between fetches, so it also bounds how late a member learns of a rebalance.
 */
export const CONSUMER_TIMINGS = {
  sessionTimeout: 10_000,
  heartbeatInterval: 1_000,
  rebalanceTimeout: 10_000,
  maxWaitTimeInMs: 1_000,
} as const;

export interface RawMessage {
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers: IHeaders;
}

export interface SubscriberDeps {
  kafka: Kafka;
  maxAttempts: number;
  /** Produces to a dead-letter topic; rejects unless the broker acked. */
  produce(topic: string, message: RawMessage): Promise<void>;
}

/**
 * One kafkajs consumer for one subscription. A message that is not an event envelope, or that
 * the subscription's `validate` refuses, goes to `<topic>.dlq` at once. Handler failures are
 * retried here with our own backoff (never by kafkajs' restart machinery) and end on
 * `<topic>.dlq`, after which the offset commits. Only a failed dead-letter write makes eachMessage throw, so the
 * offset stays uncommitted and the message comes again. A consumer that kafkajs gives up on after
 * a crash is replaced by a new one in the same group (see scheduleRebuild).
 */
export class KafkaSubscriber {
  private readonly logger: Logger;
  private consumer: Consumer | undefined;
  private starting: Promise<void> | undefined;
  private stopping = false;
  private rebuildTimer: NodeJS.Timeout | undefined;
  private rebuilding: Promise<void> | undefined;
  private rebuildAttempts = 0;

  constructor(
    private readonly subscription: Subscription,
    private readonly deps: SubscriberDeps,
  ) {
    this.logger = new Logger(`KafkaSubscriber:${subscription.group}`);
  }

  /** Resolves once this member has joined its group; a failed start can be retried. */
  start(): Promise<void> {
    this.starting ??= this.run().catch(async (err: unknown) => {
      await this.consumer?.disconnect().catch(() => undefined);
      this.consumer = undefined;
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.rebuildTimer);
    this.rebuildTimer = undefined;
    await this.rebuilding;
    await this.starting?.catch(() => undefined);
    await this.consumer?.disconnect();
  }

  private async run(): Promise<void> {
    const { group, topics } = this.subscription;
    const consumer = this.deps.kafka.consumer({
      groupId: group,
      partitionAssigners: [TopicAwareAssigner],
      allowAutoTopicCreation: false,
      ...CONSUMER_TIMINGS,
    });
    this.consumer = consumer;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.stopping || consumer !== this.consumer) return;
      this.logger.error(
        `consumer crashed on an error kafkajs does not restart after; reading ${topics.join(', ')} with a new consumer: ${errorText(payload.error)}`,
      );
      this.scheduleRebuild();
    });
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    // Resolves once the member has joined the group and received its partitions; later
    // failures are kafkajs crashes: kafkajs restarts after retriable ones, we rebuild after the rest.
    await consumer.run({ partitionsConsumedConcurrently: 1, eachMessage: (payload) => this.onMessage(payload) });
  }

  /**
   * kafkajs gives up on a consumer whose crash is not retriable (seen in a rebalance on a freshly
   * started broker: "Cannot read properties of undefined"), leaving the subscription unread.
   * A new consumer in the same group resumes from the committed offsets, so nothing is lost.
   */
  private scheduleRebuild(): void {
    if (this.stopping || this.rebuildTimer) return;
    this.rebuildAttempts += 1;
    this.rebuildTimer = setTimeout(() => {
      this.rebuildTimer = undefined;
      this.rebuilding = this.rebuild().finally(() => (this.rebuilding = undefined));
    }, retryDelayMs(this.rebuildAttempts));
  }

  private async rebuild(): Promise<void> {
    const crashed = this.consumer;
    this.consumer = undefined;
    this.starting = undefined;
    await crashed?.disconnect().catch(() => undefined);
    if (this.stopping) return;
    try {
      await this.start();
      this.rebuildAttempts = 0;
      this.logger.log(`new consumer joined group ${this.subscription.group}`);
    } catch (err) {
      this.logger.error(`starting a new consumer failed, trying again: ${errorText(err)}`);
      this.scheduleRebuild();
    }
  }

  private async onMessage(payload: EachMessagePayload): Promise<void> {
    const parsed = parseEnvelope(payload.message.value);
    if (!parsed.ok) return this.deadLetter(payload, DEAD_LETTER_REASON.poison(parsed.reason));
    const invalid = this.subscription.validate?.(parsed.event, payload.topic);
    if (invalid !== undefined) return this.deadLetter(payload, DEAD_LETTER_REASON.invalid(invalid));
    // kafkajs heartbeats only between messages; a slow handler would otherwise lose the
    // session and have its partitions (and this message) handed to another member.
    const keepAlive = setInterval(() => void payload.heartbeat().catch(() => undefined), CONSUMER_TIMINGS.heartbeatInterval);
    try {
      await this.deliver(payload, parsed.event);
    } finally {
      clearInterval(keepAlive);
    }
  }

  private async deliver(payload: EachMessagePayload, event: PlatformEvent): Promise<void> {
    const { topic, message } = payload;
    const key = message.key?.toString() ?? event.object.id;
    const deadLetter = isDeadLetterTopic(topic) ? deadLetterInfoOf(message.headers) : undefined;
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.deps.maxAttempts; attempt++) {
      // Thrown, not returned: the offset stays uncommitted and another member takes over.
      if (this.stopping) throw new Error(`consumer of group ${this.subscription.group} is stopping; ${topic} will be redelivered`);
      try {
        await this.subscription.handle(structuredClone(event), { topic, key, attempt, ...(deadLetter ? { deadLetter } : {}) });
        return;
      } catch (err) {
        lastError = err;
        if (attempt < this.deps.maxAttempts) await sleep(retryDelayMs(attempt));
      }
    }
    await this.deadLetter(payload, DEAD_LETTER_REASON.failed(this.deps.maxAttempts, errorText(lastError)));
  }

  private async deadLetter({ topic, partition, message }: EachMessagePayload, reason: string): Promise<void> {
    const where = `group ${this.subscription.group} ${topic}[${partition}]@${message.offset} key ${message.key?.toString() ?? '(none)'}`;
    if (isDeadLetterTopic(topic)) {
      this.logger.error(`${where}: skipped on a dead-letter topic: ${reason}`);
      return;
    }
    const target = deadLetterTopicOf(topic);
    this.logger.error(`${where} → ${target}: ${reason}`);
    platformMetrics.deadLetters().inc({ group: this.subscription.group });
    try {
      await this.deps.produce(target, {
        key: message.key,
        value: message.value,
        headers: deadLetterHeaders(message.headers, { reason, group: this.subscription.group, topic, partition, offset: message.offset }),
      });
    } catch (err) {
      this.logger.error(`${where}: writing to ${target} failed, the message will be redelivered: ${errorText(err)}`);
      throw err;
    }
  }
}
