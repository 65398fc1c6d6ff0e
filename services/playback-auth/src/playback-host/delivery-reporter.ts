import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DeliveryBatch, DELIVERIES_STREAM, DeliveryItem, EVENT_BUS, EventBus, publishData } from '@platform/events';
import { DeliveryMeter } from './delivery-meter';

/** Items per batch on the bus (a busy hour of many playback ids is cut in several). */
export const MAX_BATCH_ITEMS = 500;
/** Batches kept for another try while the bus refuses them; older ones are dropped (with a warning). */
const MAX_UNSENT_BATCHES = 1000;

/**
 * Reports what the meter counted on the bus (`data.deliveries`) every DELIVERY_REPORT_MS and once
 * more at shutdown. A batch the bus refuses is tried again later with the same id, so the analytics
 * consumer, idempotent on that id, counts it once even if the first publish did reach the broker.
 */
@Injectable()
export class DeliveryReporter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryReporter');
  private timer?: NodeJS.Timeout;
  private unsent: DeliveryBatch[] = [];
  private reporting?: Promise<void>;

  constructor(
    @Inject(DeliveryMeter) private readonly meter: DeliveryMeter,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.report(), this.config.deliveryUsage.reportMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.meter.settled();
    await this.report();
  }

  /** Publishes what was counted since the last report; one report at a time. */
  report(): Promise<void> {
    this.reporting ??= this.publishAll().finally(() => (this.reporting = undefined));
    return this.reporting;
  }

  private async publishAll(): Promise<void> {
    const batches = [...this.unsent, ...toBatches(this.meter.drain(), new Date())];
    this.unsent = [];
    for (const batch of batches) {
      try {
        await publishData(this.bus, DELIVERIES_STREAM, batch);
      } catch (err) {
        this.unsent.push(batch);
        this.logger.warn(`delivery report ${batch.id} not published, will retry: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (this.unsent.length > MAX_UNSENT_BATCHES) {
      const dropped = this.unsent.splice(0, this.unsent.length - MAX_UNSENT_BATCHES);
      this.logger.error(`${dropped.length} delivery reports dropped: the bus refused them too long`);
    }
  }
}

function toBatches(items: DeliveryItem[], now: Date): DeliveryBatch[] {
  const batches: DeliveryBatch[] = [];
  for (let i = 0; i < items.length; i += MAX_BATCH_ITEMS) {
    batches.push({ id: randomUUID(), reported_at: now.toISOString(), items: items.slice(i, i + MAX_BATCH_ITEMS) });
  }
  return batches;
}
