import { webhooks } from '@platform/proto';
import { DeliveryAttemptEntity } from './delivery-attempt.entity';
import { DeliveryEntity } from './delivery.entity';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function toAttemptMessage(attempt: DeliveryAttemptEntity): webhooks.DeliveryAttempt {
  const message: webhooks.DeliveryAttempt = {
    number: attempt.number,
    attempted_at: seconds(attempt.attemptedAt),
    response_status_code: attempt.responseStatusCode,
    duration_ms: attempt.durationMs,
  };
  if (attempt.error !== null) message.error = attempt.error;
  return message;
}

/** `attempts`: this delivery's, oldest first. `next_attempt_at` only while pending. */
export function toDeliveryMessage(delivery: DeliveryEntity, attempts: DeliveryAttemptEntity[]): webhooks.Delivery {
  const message: webhooks.Delivery = {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    object_type: delivery.objectType,
    object_id: delivery.objectId,
    status: delivery.status,
    attempts: attempts.map(toAttemptMessage),
    created_at: seconds(delivery.createdAt),
    url: delivery.url,
  };
  if (delivery.status === 'pending' && delivery.nextAttemptAt) message.next_attempt_at = seconds(delivery.nextAttemptAt);
  return message;
}
