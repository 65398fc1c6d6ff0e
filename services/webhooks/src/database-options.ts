import { ServiceDatabaseOptions } from '@platform/database';
import { DeliveryAttemptEntity } from './deliveries/delivery-attempt.entity';
import { DeliveryEntity } from './deliveries/delivery.entity';
import { DeliveryOccurredAt1732400000200 } from './migrations/1732400000200-delivery-occurred-at';
import { CreateDeliveries1732400000100 } from './migrations/1732400000100-create-deliveries';
import { PendingDeliveriesInSendOrder1732400001200 } from './migrations/1732400001200-pending-deliveries-in-send-order';
import { SCHEMA } from './schema';

export const webhooksDatabase: ServiceDatabaseOptions = {
  schema: SCHEMA,
  entities: [DeliveryEntity, DeliveryAttemptEntity],
  migrations: [CreateDeliveries1732400000100, DeliveryOccurredAt1732400000200, PendingDeliveriesInSendOrder1732400001200],
};
