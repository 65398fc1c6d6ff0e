import { Logger } from '@nestjs/common';
import { Admin, Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import { ConsumerLag, EventBus, PlatformEvent, Subscription } from './event-bus.port';
import { deadLetterTopicOf, errorText, eventHeaders, isDeadLetterTopic } from './kafka-envelope';
import { nestLogCreator } from './kafka-logger';
import { KafkaSubscriber, RawMessage } from './kafka-subscriber';
import { KafkaTopics } from './kafka-topics';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /**
   * Prefix (`<namespace>.`) of every topic and consumer group on the cluster, so installations
   * that share one Kafka cluster never read each other's events. The rest of the platform, and
   * the names handlers see, are without it.
   */
  namespace?: string;
  /** Of topics this bus creates. Keys map to partitions, so order holds per key. */
  partitions?: number;
  replicationFactor?: number;
}

/**
 * The production adapter (kafkajs). Publishing waits for every in-sync replica (acks -1)
 * on an idempotent producer, so a retried send neither duplicates nor reorders. Each
 * subscription is its own consumer in its group, reading from the earliest retained
 * offset when the group is new. Connections open on first use.
 */
export class KafkaBus implements EventBus {
  private readonly logger = new Logger('KafkaBus');
  private readonly kafka: Kafka;
  private readonly topics: KafkaTopics;
  private readonly subscribers: KafkaSubscriber[] = [];
  /** As the cluster names them. */
  private readonly subscriptions: Array<{ group: string; topics: string[] }> = [];
  private producer: Promise<Producer> | undefined;
  private admin: Promise<Admin> | undefined;
  private started = false;
  private closing: Promise<void> | undefined;

  constructor(
    readonly options: KafkaBusOptions,
    readonly maxAttempts = 5,
  ) {
    this.kafka = new Kafka({ clientId: options.clientId, brokers: options.brokers, logLevel: logLevel.WARN, logCreator: nestLogCreator });
    this.topics = new KafkaTopics(() => this.connectedAdmin(), {
      partitions: options.partitions ?? 3,
      replicationFactor: options.replicationFactor ?? 1,
    });
  }

  async start(): Promise<void> {
    this.assertOpen();
    if (this.started) return;
    this.started = true;
    try {
      // Concurrently: members of a group would otherwise wait out each other's rebalances in turn.
      await Promise.all(this.subscribers.map((s) => s.start()));
    } catch (err) {
      this.started = false; // subscribers that did start stay started; start() may be retried
      throw err;
    }
  }

  async publish(topic: string, key: string, event: PlatformEvent): Promise<void> {
    this.assertOpen();
    await this.produce(this.onCluster(topic), { key, value: JSON.stringify(event), headers: eventHeaders(event) });
  }

  async subscribe(local: Subscription): Promise<void> {
    this.assertOpen();
    const subscription = this.namespaced(local);
    const deadLetters = subscription.topics.filter((t) => !isDeadLetterTopic(t)).map(deadLetterTopicOf);
    await this.topics.ensure([...subscription.topics, ...deadLetters]);
    this.assertOpen(); // closed meanwhile: a consumer started now would outlive close()
    const subscriber = new KafkaSubscriber(subscription, {
      kafka: this.kafka,
      maxAttempts: this.maxAttempts,
      produce: (topic, message) => this.produce(topic, message),
    });
    this.subscribers.push(subscriber);
    this.subscriptions.push({ group: subscription.group, topics: subscription.topics });
    if (this.started) await subscriber.start();
  }

  /** End offsets minus committed offsets, per group and topic (a group that committed nothing yet: minus the start). */
  async consumerLag(): Promise<ConsumerLag[]> {
    this.assertOpen();
    const admin = await this.connectedAdmin();
    const lags: ConsumerLag[] = [];
    for (const { group, topics } of this.subscriptions) {
      const committed = await admin.fetchOffsets({ groupId: group, topics });
      for (const { topic, partitions } of committed) {
        const ends = await admin.fetchTopicOffsets(topic);
        const lag = ends.reduce((sum, end) => {
          const offset = Number(partitions.find((p) => p.partition === end.partition)?.offset ?? -1);
          return sum + Number(end.high) - (offset >= 0 ? offset : Number(end.low));
        }, 0);
        lags.push({ group: this.local(group), topic: this.local(topic), lag });
      }
    }
    return lags;
  }

  private local(name: string): string {
    const prefix = this.options.namespace ? `${this.options.namespace}.` : '';
    return prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  }

  /** The cluster's name of a topic or group. */
  private onCluster(name: string): string {
    return this.options.namespace ? `${this.options.namespace}.${name}` : name;
  }

  /** The subscription as the cluster names it; handlers and validation still see the platform's topic names. */
  private namespaced(subscription: Subscription): Subscription {
    const prefix = this.options.namespace ? `${this.options.namespace}.` : '';
    if (!prefix) return subscription;
    const local = (topic: string) => (topic.startsWith(prefix) ? topic.slice(prefix.length) : topic);
    const { validate } = subscription;
    return {
      ...subscription,
      group: prefix + subscription.group,
      topics: subscription.topics.map((t) => prefix + t),
      ...(validate ? { validate: (event: PlatformEvent, topic: string) => validate(event, local(topic)) } : {}),
      handle: (event, info) => subscription.handle(event, { ...info, topic: local(info.topic) }),
    };
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** Also used for dead letters, which may still be written while consumers stop. */
  private async produce(topic: string, message: RawMessage): Promise<void> {
    await this.topics.ensure([topic]);
    const producer = await this.connectedProducer();
    await producer.send({ topic, acks: -1, messages: [message] });
  }

  private connectedProducer(): Promise<Producer> {
    this.producer ??= this.connect(
      this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        // Java's murmur2 partitioner, so other Kafka clients map keys to the same partitions.
        createPartitioner: Partitioners.DefaultPartitioner,
      }),
      () => (this.producer = undefined),
    );
    return this.producer;
  }

  private connectedAdmin(): Promise<Admin> {
    this.admin ??= this.connect(this.kafka.admin(), () => (this.admin = undefined));
    return this.admin;
  }

  /** Connects a client; a failed connection is forgotten so the next use tries again. */
  private async connect<T extends { connect(): Promise<void> }>(client: T, forget: () => void): Promise<T> {
    try {
      await client.connect();
      return client;
    } catch (err) {
      forget();
      throw err;
    }
  }

  private async shutdown(): Promise<void> {
    // Consumers first: one may still be writing a dead letter through the producer.
    const consumers = await Promise.allSettled(this.subscribers.map((s) => s.stop()));
    const clients = await Promise.allSettled([this.producer?.then((p) => p.disconnect()), this.admin?.then((a) => a.disconnect())]);
    for (const r of [...consumers, ...clients]) {
      if (r.status === 'rejected') this.logger.warn(`while closing: ${errorText(r.reason)}`);
    }
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('event bus is closed');
  }
}
