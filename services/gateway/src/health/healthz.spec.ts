import { health } from '@platform/proto';
import { NEVER, of, throwError } from 'rxjs';
import { TestGateway } from '../testing/test-gateway';

const { SERVING, NOT_SERVING } = health.HealthCheckResponse_ServingStatus;
const ALL = ['playback-auth', 'live', 'assets', 'uploads', 'spaces', 'web-inputs', 'analytics', 'transcoder', 'webhooks'];

describe('GET /healthz', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => {
    for (const name of ALL) gw.health[name as keyof typeof gw.health].check.mockReturnValue(of({ status: SERVING }));
    gw.database.query.mockResolvedValue([{ '?column?': 1 }]);
  });

  it('is 200 ok, without credentials, when every service serves and the database answers', async () => {
    const res = await gw.request('GET', '/healthz', { auth: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', services: Object.fromEntries([...ALL, 'gateway'].map((n) => [n, 'ok'])) });
    for (const name of ALL) expect(gw.health[name as keyof typeof gw.health].check).toHaveBeenCalledWith({ service: '' });
  });

  it('is 503 naming the services that are not ready, and how', async () => {
    gw.health.live.check.mockReturnValue(of({ status: NOT_SERVING }));
    gw.health.assets.check.mockReturnValue(throwError(() => Object.assign(new Error('unavailable'), { code: 14 })));
    const res = await gw.request('GET', '/healthz', { auth: null });
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('unavailable');
    expect(res.body.services).toMatchObject({ live: 'not_serving', assets: 'unavailable', 'playback-auth': 'ok', gateway: 'ok' });
  });

  it('is 503 when the gateway’s own database does not answer', async () => {
    gw.database.query.mockRejectedValue(new Error('connection terminated'));
    const res = await gw.request('GET', '/healthz', { auth: null });
    expect(res.status).toBe(503);
    expect(res.body.services.gateway).toBe('unavailable');
  });

  it('gives a service that does not answer about one second', async () => {
    gw.health.webhooks.check.mockReturnValue(NEVER);
    const started = Date.now();
    const res = await gw.request('GET', '/healthz', { auth: null });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(res.status).toBe(503);
    expect(res.body.services.webhooks).toBe('unavailable');
  });
});
