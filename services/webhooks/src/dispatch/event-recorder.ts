import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, EVENT_TYPES, EventBus, PlatformEvent, topicOf } from '@platform/events';
import { newId } from '@platform/ids';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { EnvironmentRepository } from './environment.repository';
import { renderWebhookBody } from './webhook-body';

export const CONSUMER_GROUP = 'webhooks';

/**
 * Consumes every published event type and only records it as a delivery; the dispatcher
 * sends. Recording is idempotent by event id, so a redelivered event is sent once. Without
 * WEBHOOK_URL the group still consumes (and drops) events: setting the URL later starts
 * with new events, not with everything the broker still retains.
 */
@Injectable()
export class EventRecorder implements OnModuleInit {
  private readonly logger = new Logger('EventRecorder');

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(DeliveryRepository) private readonly deliveries: Pick<DeliveryRepository, 'record'>,
    @Inject(EnvironmentRepository) private readonly environment: Pick<EnvironmentRepository, 'get'>,
    @Inject(DeliveryDispatcher) private readonly dispatcher: Pick<DeliveryDispatcher, 'nudge'>,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.webhook) this.logger.log('WEBHOOK_URL is not set: events are not recorded and no webhook is sent');
    await this.bus.subscribe({ group: CONSUMER_GROUP, topics: EVENT_TYPES.map(topicOf), handle: (event) => this.record(event) });
  }

  async record(event: PlatformEvent): Promise<void> {
    const webhook = this.config.webhook;
    if (!webhook) return;
    const body = renderWebhookBody(event, await this.environment.get());
    const recorded = await this.deliveries.record({
      id: newId(),
      eventId: event.id,
      eventType: event.type,
      objectType: event.object.type,
      objectId: event.object.id,
      url: webhook.url,
      body: body as unknown as Record<string, unknown>,
    });
    if (recorded) this.dispatcher.nudge();
  }
}
