import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { BEACONS_STREAM, BeaconBatch, EVENT_BUS, EventBus, PlatformEvent, dataTopicOf, validateDataEvent } from '@platform/events';
import { ViewBuilder } from './view-builder';

export const VIEWS_CONSUMER_GROUP = 'analytics.views';

/**
 * Consumer group `analytics.views`: every beacon batch is folded into its view. The stream's
 * schema is checked before the handler (a malformed batch is a dead letter at once); odd values
 * inside a valid batch are skipped by the builder, never thrown. A storage failure throws, so
 * the bus redelivers, which the builder's sequence numbers make harmless.
 */
@Injectable()
export class ViewsConsumer implements OnModuleInit {
  private readonly logger = new Logger('ViewsConsumer');

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(ViewBuilder) private readonly builder: ViewBuilder,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe({
      group: VIEWS_CONSUMER_GROUP,
      topics: [dataTopicOf(BEACONS_STREAM)],
      validate: validateDataEvent(BEACONS_STREAM),
      handle: (event) => this.handle(event),
    });
  }

  async handle(event: PlatformEvent): Promise<void> {
    const batch = event.data as BeaconBatch;
    const result = await this.builder.ingest(batch);
    if (result.skipped > 0 && result.applied === 0 && !result.rowWritten)
      this.logger.debug(`view ${batch.view_id}: ${result.skipped} events already applied or unusable`);
  }
}
