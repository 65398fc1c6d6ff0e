import { Controller, Inject } from '@nestjs/common';
import { common, webhooks } from '@platform/proto';
import { DeliveriesService } from './deliveries.service';

@Controller()
@webhooks.WebhooksServiceControllerMethods()
export class DeliveriesGrpcController implements webhooks.WebhooksServiceController {
  constructor(@Inject(DeliveriesService) private readonly deliveries: DeliveriesService) {}

  getDelivery(request: common.IdRequest): Promise<webhooks.Delivery> {
    return this.deliveries.get(request.id);
  }

  listDeliveries(request: webhooks.ListDeliveriesRequest): Promise<webhooks.DeliveryList> {
    return this.deliveries.list(request);
  }
}
