import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { EVENT_BUS, EVENT_TYPES, EventBus, PlatformEvent, subscribeEvents } from '@platform/events';
import { newId } from '@platform/ids';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { EnvironmentRepository } from './environment.repository';
import { renderWebhookBody } from './webhook-body';

export const CONSUMER_GROUP = 'webhooks';

/**
 * Consumes every registered event type (each validated against the registry first: an invalid
 * one is a dead letter, never a webhook) and only records it as a delivery; the dispatcher sends.
 * Idempotent by the event id itself: `deliveries.event_id` is unique and the insert is
 * `ON CONFLICT DO NOTHING` (one statement, effect and record at once), so a redelivered event
 * records nothing and is sent once; it needs no `processed_events`. Without WEBHOOK_URL the group
 * still consumes (and drops) events: setting the URL later starts with new events, not with
 * everything the broker still retains.
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
    await subscribeEvents(this.bus, { group: CONSUMER_GROUP, types: EVENT_TYPES, handle: (event) => this.record(event) });
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
