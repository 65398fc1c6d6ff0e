import { Module } from '@nestjs/common';
import { DeliveryAssetProjection } from './delivery-asset.projection';
import { DeliveryAssetsConsumer } from './delivery-assets.consumer';
import { DeliveryBatchRecorder } from './delivery-batch.recorder';
import { DeliveryBatchesConsumer } from './delivery-batches.consumer';
import { DeliveryUsageGrpcController } from './delivery-usage.grpc-controller';
import { DeliveryUsageQuery } from './delivery-usage.query';
import { DELIVERY_USAGE_CLOCK, DeliveryUsageService } from './delivery-usage.service';

/**
 * Delivery usage (spec 000 §4.6): consumes the playback hosts' `data.deliveries` batches and the
 * `video.asset.*` events into ClickHouse, and serves DeliveryUsageService. Needs from the app:
 * PLATFORM_CONFIG, EVENT_BUS, and ANALYTICS_STORE migrated with DELIVERY_USAGE_MIGRATIONS.
 */
@Module({
  controllers: [DeliveryUsageGrpcController],
  providers: [
    { provide: DELIVERY_USAGE_CLOCK, useValue: Date.now },
    DeliveryBatchRecorder,
    DeliveryAssetProjection,
    DeliveryUsageQuery,
    DeliveryUsageService,
    DeliveryBatchesConsumer,
    DeliveryAssetsConsumer,
  ],
})
export class DeliveryUsageModule {}
