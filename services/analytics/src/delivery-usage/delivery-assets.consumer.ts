import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EVENT_BUS, EventBus, subscribeEvents } from '@platform/events';
import { DELIVERY_ASSET_EVENT_TYPES, DeliveryAssetProjection } from './delivery-asset.projection';

export const DELIVERY_ASSETS_CONSUMER_GROUP = 'analytics.delivery-assets';

/** Consumer group `analytics.delivery-assets`: the asset lifecycle events into the projection usage records read. */
@Injectable()
export class DeliveryAssetsConsumer implements OnModuleInit {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DeliveryAssetProjection) private readonly projection: DeliveryAssetProjection,
  ) {}

  async onModuleInit(): Promise<void> {
    await subscribeEvents(this.bus, {
      group: DELIVERY_ASSETS_CONSUMER_GROUP,
      types: DELIVERY_ASSET_EVENT_TYPES,
      handle: (event) => this.projection.apply(event),
    });
  }
}
