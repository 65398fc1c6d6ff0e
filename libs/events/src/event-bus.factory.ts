import { PlatformConfig } from '@platform/config';
import { platformMetrics } from '@platform/metrics';
import { EventBus } from './event-bus.port';
import { InProcessBus } from './in-process-bus';

let processBus: EventBus | undefined;
let stopLagMetric: (() => void) | undefined;

/**
 * The one bus of this process: Kafka when KAFKA_BROKERS is set, otherwise in-process
 * (shared by every service of the embedded process). Its consumer lag is served as `bus_consumer_lag`.
 */
export function getEventBus(config: PlatformConfig): EventBus {
  if (!processBus) {
    if (config.kafka) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { KafkaBus } = require('./kafka-bus') as typeof import('./kafka-bus');
      processBus = new KafkaBus(config.kafka, config.eventMaxAttempts);
    } else {
      processBus = new InProcessBus(config.eventMaxAttempts);
    }
    const bus = processBus;
    stopLagMetric = platformMetrics.consumerLag(async () =>
      (await bus.consumerLag()).map(({ group, topic, lag }) => ({ labels: { group, topic }, value: lag })),
    );
  }
  return processBus;
}

/** Closes and forgets the process bus (shutdown, tests). */
export async function closeEventBus(): Promise<void> {
  const bus = processBus;
  processBus = undefined;
  stopLagMetric?.();
  stopLagMetric = undefined;
  await bus?.close();
}
