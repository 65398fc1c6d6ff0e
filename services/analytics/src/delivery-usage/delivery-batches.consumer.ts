import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DELIVERIES_STREAM, DeliveryBatch, EVENT_BUS, EventBus, PlatformEvent, dataTopicOf, validateDataEvent } from '@platform/events';
import { DeliveryBatchRecorder } from './delivery-batch.recorder';

export const DELIVERIES_CONSUMER_GROUP = 'analytics.deliveries';

/**
 * Consumer group `analytics.deliveries`: each playback host's delivery batch is stored once (the
 * recorder is idempotent on the batch id). A malformed batch is a dead letter at once; a storage
 * failure throws, so the bus redelivers.
 */
@Injectable()
export class DeliveryBatchesConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DeliveryBatchRecorder) private readonly recorder: DeliveryBatchRecorder,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe({
      group: DELIVERIES_CONSUMER_GROUP,
      topics: [dataTopicOf(DELIVERIES_STREAM)],
      validate: validateDataEvent(DELIVERIES_STREAM),
      handle: (event) => this.handle(event),
    });
  }

  async handle(event: PlatformEvent): Promise<void> {
    await this.recorder.record(event.data as DeliveryBatch);
  }
}
