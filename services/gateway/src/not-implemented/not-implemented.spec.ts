import { TestGateway } from '../testing/test-gateway';
import { PLANNED_RESOURCES } from './planned-routes';

describe('routes of services not built yet', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());

  it.each([
    ['POST', '/video/v1/spaces/s1/broadcasts/b1/start', 'Spaces are not implemented yet (service: spaces)'],
    ['DELETE', '/video/v1/spaces/s1', 'Spaces are not implemented yet (service: spaces)'],
  ])('%s %s → 501 naming the owner', async (method, path, message) => {
    const res = await gw.request(method, path, method === 'GET' ? {} : { body: {} });
    expect(res.status).toBe(501);
    expect(res.body).toEqual({ error: { type: 'not_implemented', messages: [message] } });
    expect(res.headers.get('x-should-retry')).toBe('false');
  });

  it('checks credentials and permission first', async () => {
    expect((await gw.request('GET', '/video/v1/spaces', { auth: null })).status).toBe(401);
    const video = await gw.token(['video:read']);
    expect((await gw.request('GET', '/video/v1/spaces', { auth: video })).status).toBe(501);
    expect((await gw.request('POST', '/video/v1/spaces', { auth: video, body: {} })).status).toBe(403);
    expect((await gw.request('PUT', '/video/v1/assets/a1/mp4-support', { auth: video, body: {} })).status).toBe(403);
  });

  it('has no route twice', () => {
    const keys = PLANNED_RESOURCES.flatMap((r) => r.routes.map((route) => `${route.method} ${route.path}`));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
