import { PlatformEvent } from '@platform/events';
import { DeliveryAttemptEntity } from '../deliveries/delivery-attempt.entity';

export interface WebhookEnvironment {
  name: string;
  id: string;
}

/** A previous attempt as Mux lists it in `attempts` (no `webhook_id`: there is one endpoint, WEBHOOK_URL). */
export interface WebhookAttempt {
  id: string;
  address: string;
  created_at: string;
  max_attempts: number;
  response_status_code: number;
  response_headers: Record<string, string>;
  response_body: string | null;
}

/** The JSON Mux POSTs (the SDK's `BaseWebhookEvent` plus the fields Mux sends as null). */
export interface WebhookBody {
  type: string;
  id: string;
  created_at: string;
  object: { type: string; id: string };
  data: Record<string, unknown>;
  environment: WebhookEnvironment;
  attempts: WebhookAttempt[];
  accessor_source: null;
  accessor: null;
  request_id: null;
}

/** The body of an event's webhook before any attempt. `data` (with `passthrough`) is the event's own. */
export function renderWebhookBody(event: PlatformEvent, environment: WebhookEnvironment): WebhookBody {
  return {
    type: event.type,
    id: event.id,
    created_at: new Date(event.occurred_at).toISOString(),
    object: { type: event.object.type, id: event.object.id },
    data: event.data,
    environment: { name: environment.name, id: environment.id },
    attempts: [],
    accessor_source: null,
    accessor: null,
    request_id: null,
  };
}

export function toWebhookAttempt(attempt: DeliveryAttemptEntity, maxAttempts: number): WebhookAttempt {
  return {
    id: attempt.id,
    address: attempt.address,
    created_at: attempt.attemptedAt.toISOString(),
    max_attempts: maxAttempts,
    response_status_code: attempt.responseStatusCode,
    response_headers: attempt.responseHeaders ?? {},
    response_body: attempt.responseBody,
  };
}

/** The exact bytes of one POST: the stored body with the attempts made before this one. */
export function serializeWebhookBody(body: Record<string, unknown>, previousAttempts: WebhookAttempt[]): string {
  // spreading keeps `attempts` where the stored body has it
  return JSON.stringify({ ...body, attempts: previousAttempts });
}
