import { EventBus, PlatformEvent, Subscription } from './event-bus.port';

/** Placeholder replaced by the Kafka adapter (kafkajs). */
export class KafkaBus implements EventBus {
  constructor(
    readonly options: { brokers: string[]; clientId: string },
    readonly maxAttempts: number,
  ) {}
  start(): Promise<void> {
    throw new Error('KafkaBus not implemented');
  }
  publish(_topic: string, _key: string, _event: PlatformEvent): Promise<void> {
    throw new Error('KafkaBus not implemented');
  }
  subscribe(_subscription: Subscription): Promise<void> {
    throw new Error('KafkaBus not implemented');
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
