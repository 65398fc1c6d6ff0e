import { platformMetrics } from '@platform/metrics';
import { Logger } from '@nestjs/common';
import { ConsumerLag, DEAD_LETTER_SUFFIX, DeadLetterInfo, DeliveryInfo, EventBus, PlatformEvent, Subscription } from './event-bus.port';
import { checkEnvelope, DEAD_LETTER_REASON, errorText } from './event-envelope';
import { retryDelayMs, sleep } from './retry-policy';

interface Message {
  topic: string;
  key: string;
  /** Serialized as a broker would, so consumers never share an object with the producer. */
  body: string;
  /** Set on dead letters: why and where from (Kafka carries the same in `dlq-*` headers). */
  deadLetter?: DeadLetterInfo;
}

class Group {
  readonly members: Subscription[] = [];
  /** The topics of all members, kept as members join: routing asks for it on every publish. */
  readonly topics = new Set<string>();
  private readonly queue: Message[] = [];
  private delivering: Message | undefined;
  private draining: Promise<void> | undefined;

  constructor(
    private readonly bus: InProcessBus,
    readonly name: string,
  ) {}

  join(subscription: Subscription): void {
    this.members.push(subscription);
    for (const topic of subscription.topics) this.topics.add(topic);
  }

  enqueue(message: Message): void {
    this.queue.push(message);
    this.startDraining();
  }

  /** A message enqueued after the drain found the queue empty, but before it ended, is drained by the next run. */
  private startDraining(): void {
    if (this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.queue.length > 0 && !this.bus.closed) this.startDraining();
    });
  }

  /** Events queued or being handled, per topic of the group. */
  lag(): ConsumerLag[] {
    const pending = this.delivering ? [this.delivering, ...this.queue] : this.queue;
    return [...this.topics].map((topic) => ({ group: this.name, topic, lag: pending.filter((m) => m.topic === topic).length }));
  }

  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    for (let message = this.queue.shift(); message; message = this.queue.shift()) {
      if (this.bus.closed) return;
      this.delivering = message;
      await this.deliver(message).finally(() => (this.delivering = undefined));
    }
  }

  /** Members share a group by key, as Kafka partitions do, so order per key holds. */
  private memberFor(message: Message): Subscription | undefined {
    const candidates = this.members.filter((m) => m.topics.includes(message.topic));
    if (candidates.length === 0) return undefined;
    let hash = 0;
    for (const ch of message.key) hash = (hash * 31 + ch.charCodeAt(0)) | 0;
    return candidates[Math.abs(hash) % candidates.length];
  }

  private async deliver(message: Message): Promise<void> {
    const member = this.memberFor(message);
    if (!member) return;
    const parsed = checkEnvelope(JSON.parse(message.body));
    if (!parsed.ok) return this.bus.deadLetter(this.name, message, DEAD_LETTER_REASON.poison(parsed.reason));
    const invalid = member.validate?.(parsed.event, message.topic);
    if (invalid !== undefined) return this.bus.deadLetter(this.name, message, DEAD_LETTER_REASON.invalid(invalid));
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.bus.maxAttempts; attempt++) {
      const info: DeliveryInfo = { topic: message.topic, key: message.key, attempt, ...(message.deadLetter ? { deadLetter: { ...message.deadLetter } } : {}) };
      try {
        await member.handle(JSON.parse(message.body) as PlatformEvent, info);
        return;
      } catch (err) {
        lastError = err;
        if (attempt < this.bus.maxAttempts) await sleep(retryDelayMs(attempt));
      }
    }
    this.bus.deadLetter(this.name, message, DEAD_LETTER_REASON.failed(this.bus.maxAttempts, errorText(lastError)));
  }
}

/**
 * The embedded adapter: consumer groups, per-key order, validation, retries and dead letters
 * (with their reason) as on Kafka, all in memory. An event handed over survives handler failures
 * but not a crash of the process; the outbox row is marked published once it is handed over.
 */
export class InProcessBus implements EventBus {
  private readonly logger = new Logger('InProcessBus');
  private readonly groups = new Map<string, Group>();
  private readonly held: Message[] = [];
  private started = false;
  closed = false;

  constructor(readonly maxAttempts = 5) {}

  start(): Promise<void> {
    if (!this.started) {
      this.started = true;
      for (const message of this.held.splice(0)) this.route(message);
    }
    return Promise.resolve();
  }

  publish(topic: string, key: string, event: PlatformEvent): Promise<void> {
    if (this.closed) return Promise.reject(new Error('event bus is closed'));
    const message = { topic, key, body: JSON.stringify(event) };
    if (this.started) this.route(message);
    else this.held.push(message);
    return Promise.resolve();
  }

  subscribe(subscription: Subscription): Promise<void> {
    let group = this.groups.get(subscription.group);
    if (!group) {
      group = new Group(this, subscription.group);
      this.groups.set(subscription.group, group);
    }
    group.join(subscription);
    return Promise.resolve();
  }

  consumerLag(): Promise<ConsumerLag[]> {
    return Promise.resolve([...this.groups.values()].flatMap((g) => g.lag()));
  }

  /** Resolves when every group has handled everything published so far (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.groups.values()].map((g) => g.idle()));
  }

  async close(): Promise<void> {
    await this.settled();
    this.closed = true;
  }

  deadLetter(group: string, message: Message, reason: string): void {
    if (!message.topic.endsWith(DEAD_LETTER_SUFFIX)) platformMetrics.deadLetters().inc({ group });
    this.logger.error(`group ${group} gave up on ${message.topic} key ${message.key}: ${reason}`);
    if (message.topic.endsWith(DEAD_LETTER_SUFFIX)) return;
    this.route({ ...message, topic: message.topic + DEAD_LETTER_SUFFIX, deadLetter: { reason, group, topic: message.topic } });
  }

  private route(message: Message): void {
    for (const group of this.groups.values()) {
      if (group.topics.has(message.topic)) group.enqueue(message);
    }
  }
}
