import { Controller, Inject } from '@nestjs/common';
import { deliveryUsage } from '@platform/proto';
import { DeliveryUsageService } from './delivery-usage.service';

@Controller()
@deliveryUsage.DeliveryUsageServiceControllerMethods()
export class DeliveryUsageGrpcController implements deliveryUsage.DeliveryUsageServiceController {
  constructor(@Inject(DeliveryUsageService) private readonly usage: DeliveryUsageService) {}

  listDeliveryUsage(request: deliveryUsage.ListDeliveryUsageRequest): Promise<deliveryUsage.DeliveryUsageList> {
    return this.usage.list(request);
  }
}
