import { GrpcStatus } from '@platform/errors';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

describe('signing keys routes (spec 2.4, 4.1)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('creates a key: 201, the private key once, created_at as a Unix-second string', async () => {
    gw.signingKeys.createSigningKey.mockReturnValue(reply({ id: 'k1', created_at: 1700000000, private_key: 'LS0tLS1CRUdJTi' }));
    const res = await gw.request('POST', '/system/v1/signing-keys');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { id: 'k1', created_at: '1700000000', private_key: 'LS0tLS1CRUdJTi' } });
    expect(gw.signingKeys.createSigningKey).toHaveBeenCalledWith({});
  });

  it('never shows a private key when reading or listing, even if a service sent one', async () => {
    gw.signingKeys.getSigningKey.mockReturnValue(reply({ id: 'k1', created_at: 1700000001, private_key: 'secret' }));
    const one = await gw.request('GET', '/system/v1/signing-keys/k1');
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: { id: 'k1', created_at: '1700000001' } });
    expect(gw.signingKeys.getSigningKey).toHaveBeenCalledWith({ id: 'k1' });

    gw.signingKeys.listSigningKeys.mockReturnValue(
      reply({
        items: [
          { id: 'a', created_at: 1, private_key: 'x' },
          { id: 'b', created_at: 2 },
        ],
      }),
    );
    const list = await gw.request('GET', '/system/v1/signing-keys');
    expect(list.body).toEqual({
      data: [
        { id: 'a', created_at: '1' },
        { id: 'b', created_at: '2' },
      ],
    });
  });

  it('pages with limit 25 and page 1 by default and passes explicit values on', async () => {
    gw.signingKeys.listSigningKeys.mockReturnValue(reply({ items: [] }));
    await gw.request('GET', '/system/v1/signing-keys');
    expect(gw.signingKeys.listSigningKeys).toHaveBeenLastCalledWith({ limit: 25, page: 1 });
    await gw.request('GET', '/system/v1/signing-keys?limit=100&page=7');
    expect(gw.signingKeys.listSigningKeys).toHaveBeenLastCalledWith({ limit: 100, page: 7 });
  });

  it('answers a page past the end with data: []', async () => {
    gw.signingKeys.listSigningKeys.mockReturnValue(reply({ items: [] }));
    const res = await gw.request('GET', '/system/v1/signing-keys?limit=100&page=100000');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it.each([
    ['limit=0', 'limit: must be at least 1'],
    ['limit=abc', 'limit: must be an integer'],
    ['limit=1.5', 'limit: must be an integer'],
    ['limit=-3', 'limit: must be an integer'],
    ['page=0', 'page: must be at least 1'],
    ['page=', 'page: must be an integer'],
    ['limit=1&limit=2', 'limit: must be an integer'],
    ['limit=5&colour=red', 'colour: is not a known parameter'],
    ['=3', '(a field with an empty name): is not a known parameter'],
  ])('refuses %s with 400 naming the parameter, calling nothing', async (query, message) => {
    const res = await gw.request('GET', `/system/v1/signing-keys?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages: [message] } });
    expect(gw.signingKeys.listSigningKeys).not.toHaveBeenCalled();
  });

  it('deletes with 204 and no body', async () => {
    gw.signingKeys.deleteSigningKey.mockReturnValue(reply({}));
    const res = await gw.request('DELETE', '/system/v1/signing-keys/k1');
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(gw.signingKeys.deleteSigningKey).toHaveBeenCalledWith({ id: 'k1' });
  });

  it('maps NOT_FOUND from the service to the 404 error body', async () => {
    gw.signingKeys.getSigningKey.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Signing key not found']));
    const res = await gw.request('GET', '/system/v1/signing-keys/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { type: 'not_found', messages: ['Signing key not found'] } });
    expect(res.headers.get('x-should-retry')).toBe('false');
  });

  it('serves the deprecated /video/v1/signing-keys routes with identical shapes', async () => {
    gw.signingKeys.createSigningKey.mockReturnValue(reply({ id: 'k2', created_at: 1700000002, private_key: 'pk' }));
    gw.signingKeys.getSigningKey.mockReturnValue(reply({ id: 'k2', created_at: 1700000002 }));
    gw.signingKeys.listSigningKeys.mockReturnValue(reply({ items: [{ id: 'k2', created_at: 1700000002 }] }));
    gw.signingKeys.deleteSigningKey.mockReturnValue(reply({}));
    expect((await gw.request('POST', '/video/v1/signing-keys')).body).toEqual({ data: { id: 'k2', created_at: '1700000002', private_key: 'pk' } });
    expect((await gw.request('GET', '/video/v1/signing-keys/k2')).body).toEqual({ data: { id: 'k2', created_at: '1700000002' } });
    expect((await gw.request('GET', '/video/v1/signing-keys')).body).toEqual({ data: [{ id: 'k2', created_at: '1700000002' }] });
    expect((await gw.request('DELETE', '/video/v1/signing-keys/k2')).status).toBe(204);
  });
});
