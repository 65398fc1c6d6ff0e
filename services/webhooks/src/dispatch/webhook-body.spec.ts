import Mux from '@mux/mux-node';
import { PlatformEvent } from '@platform/events';
import { DeliveryAttemptEntity } from '../deliveries/delivery-attempt.entity';
import { renderWebhookBody, serializeWebhookBody, toWebhookAttempt } from './webhook-body';

const event: PlatformEvent = {
  id: '3f6c0b1e-4f57-4c3e-9d5b-0c1f1c2d3e4f',
  type: 'video.asset.ready',
  occurred_at: '2024-05-01T12:34:56.789Z',
  object: { type: 'asset', id: 'asset-1' },
  data: { id: 'asset-1', status: 'ready', passthrough: 'my-ref', created_at: '1714566896' },
};
const environment = { name: 'Production', id: 'env123' };

const attempt = (over: Partial<DeliveryAttemptEntity> = {}): DeliveryAttemptEntity => ({
  id: 'b0d5e2c8-0000-4000-8000-000000000001',
  deliveryId: 'delivery-1',
  number: 1,
  attemptedAt: new Date('2024-05-01T12:35:00.000Z'),
  address: 'https://hooks.example/mux',
  responseStatusCode: 503,
  responseHeaders: { 'content-type': 'text/plain' },
  responseBody: 'busy',
  error: null,
  durationMs: 12,
  ...over,
});

describe('renderWebhookBody', () => {
  it('is the body Mux POSTs, in its field names, with the event data (and passthrough) untouched', () => {
    const body = renderWebhookBody(event, environment);
    expect(body).toEqual({
      type: 'video.asset.ready',
      id: event.id,
      created_at: '2024-05-01T12:34:56.789Z',
      object: { type: 'asset', id: 'asset-1' },
      data: { id: 'asset-1', status: 'ready', passthrough: 'my-ref', created_at: '1714566896' },
      environment: { name: 'Production', id: 'env123' },
      attempts: [],
      accessor_source: null,
      accessor: null,
      request_id: null,
    });
    // what the SDK's webhook event types declare
    const typed: Mux.Webhooks.BaseWebhookEvent = body;
    expect(typed.object.id).toBe('asset-1');
  });

  it('writes created_at as ISO 8601 UTC whatever offset the event time carries', () => {
    const body = renderWebhookBody({ ...event, occurred_at: '2024-05-01T14:34:56+02:00' }, environment);
    expect(body.created_at).toBe('2024-05-01T12:34:56.000Z');
  });
});

describe('serializeWebhookBody', () => {
  it('lists the attempts made before this POST as Mux does, keeping the field order of the body', () => {
    const body = renderWebhookBody(event, environment) as unknown as Record<string, unknown>;
    const first = toWebhookAttempt(attempt(), 12);
    const second = toWebhookAttempt(
      attempt({
        id: 'b0d5e2c8-0000-4000-8000-000000000002',
        number: 2,
        responseStatusCode: 0,
        responseHeaders: null,
        responseBody: null,
        error: 'connect ECONNREFUSED',
      }),
      12,
    );
    const raw = serializeWebhookBody(body, [first, second]);

    const parsed = JSON.parse(raw) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['type', 'id', 'created_at', 'object', 'data', 'environment', 'attempts', 'accessor_source', 'accessor', 'request_id']);
    expect(parsed.attempts).toEqual([
      {
        id: 'b0d5e2c8-0000-4000-8000-000000000001',
        address: 'https://hooks.example/mux',
        created_at: '2024-05-01T12:35:00.000Z',
        max_attempts: 12,
        response_status_code: 503,
        response_headers: { 'content-type': 'text/plain' },
        response_body: 'busy',
      },
      {
        id: 'b0d5e2c8-0000-4000-8000-000000000002',
        address: 'https://hooks.example/mux',
        created_at: '2024-05-01T12:35:00.000Z',
        max_attempts: 12,
        response_status_code: 0,
        response_headers: {},
        response_body: null,
      },
    ]);
    const typed: Mux.Webhooks.BaseWebhookEvent['attempts'] = [first, second];
    expect(typed).toHaveLength(2);
    expect({ ...parsed, attempts: [] }).toEqual(body);
    expect(serializeWebhookBody(body, [])).toBe(JSON.stringify(body));
  });
});
