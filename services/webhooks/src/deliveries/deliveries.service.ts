import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { webhooks } from '@platform/proto';
import { DeliveryRepository } from './delivery.repository';
import { toDeliveryMessage } from './delivery.mapper';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/** Read side of the dispatcher's record, for operators and tests (WebhooksService). */
@Injectable()
export class DeliveriesService {
  constructor(@Inject(DeliveryRepository) private readonly deliveries: DeliveryRepository) {}

  /** By delivery id or by event id. */
  async get(id: string): Promise<webhooks.Delivery> {
    const delivery = id ? await this.deliveries.findByIdOrEventId(id) : null;
    if (!delivery) throw DomainError.notFound('Delivery');
    return toDeliveryMessage(delivery, await this.deliveries.attemptsOf([delivery.id]));
  }

  /** Newest first, optionally only one object's. */
  async list(request: webhooks.ListDeliveriesRequest): Promise<webhooks.DeliveryList> {
    if (request.limit > MAX_LIMIT) throw DomainError.invalid(`limit: must be at most ${MAX_LIMIT}`);
    const limit = request.limit > 0 ? request.limit : DEFAULT_LIMIT;
    const page = request.page > 0 ? request.page : 1;
    const objectId = request.object_id ? request.object_id : undefined;
    const deliveries = await this.deliveries.list(limit, (page - 1) * limit, objectId);
    const attempts = await this.deliveries.attemptsOf(deliveries.map((d) => d.id));
    return {
      items: deliveries.map((d) =>
        toDeliveryMessage(
          d,
          attempts.filter((a) => a.deliveryId === d.id),
        ),
      ),
    };
  }
}
