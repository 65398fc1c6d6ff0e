import { Module } from '@nestjs/common';
import { DeliveriesGrpcController } from './deliveries.grpc-controller';
import { DeliveriesService } from './deliveries.service';
import { DeliveryRepository } from './delivery.repository';

@Module({
  controllers: [DeliveriesGrpcController],
  providers: [DeliveriesService, DeliveryRepository],
  // the dispatcher records and sends through the same repository
  exports: [DeliveryRepository],
})
export class DeliveriesModule {}
