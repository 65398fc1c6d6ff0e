import { Module } from '@nestjs/common';
import { deliveryUsage } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';
import { DELIVERY_USAGE_CLIENT, DeliveryUsageController } from './delivery-usage.controller';

@Module({
  controllers: [DeliveryUsageController],
  providers: [serviceClientProvider(DELIVERY_USAGE_CLIENT, 'analytics', deliveryUsage.DELIVERY_USAGE_SERVICE_NAME)],
})
export class DeliveryUsageModule {}
