import { reply, TestGateway } from '../testing/test-gateway';

describe('access tokens on every route (spec 5, docs/decisions.md "Authentication")', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
    gw.signingKeys.listSigningKeys.mockReturnValue(reply({ items: [] }));
    gw.signingKeys.createSigningKey.mockReturnValue(reply({ id: 'k', created_at: 1, private_key: 'pk' }));
    gw.playbackRestrictions.listPlaybackRestrictions.mockReturnValue(reply({ items: [], total_row_count: 0 }));
  });
  afterAll(() => gw.stop());

  const unauthorized = (res: { status: number; body: any; headers: Headers }) => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { type: 'unauthorized', messages: [expect.any(String)] } });
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  };

  it('refuses a request without credentials with 401', async () => {
    unauthorized(await gw.request('GET', '/system/v1/signing-keys', { auth: null }));
  });

  it('refuses a wrong secret, an unknown id and a malformed header with 401', async () => {
    unauthorized(await gw.request('GET', '/system/v1/signing-keys', { auth: { id: gw.admin.id, secret: 'wrong' } }));
    unauthorized(await gw.request('GET', '/system/v1/signing-keys', { auth: { id: 'nobody', secret: 'nothing' } }));
    unauthorized(await gw.request('GET', '/system/v1/signing-keys', { auth: null, headers: { authorization: 'Bearer abc' } }));
    unauthorized(
      await gw.request('GET', '/system/v1/signing-keys', { auth: null, headers: { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` } }),
    );
  });

  it('refuses a revoked token', async () => {
    const token = await gw.token(['system:write']);
    await gw.tokens.revoke(token.id);
    unauthorized(await gw.request('GET', '/system/v1/signing-keys', { auth: token }));
  });

  it('creates the bootstrap token from ACCESS_TOKEN_ID/SECRET with all six permissions', () => {
    const row = gw.tokens.rows.get('admin');
    expect(row?.permissions.sort()).toEqual(['data:read', 'data:write', 'system:read', 'system:write', 'video:read', 'video:write']);
    expect(row?.secret_hash).not.toContain('admin-secret');
  });

  it('forbids a video-only token on system and deprecated signing-key routes (403)', async () => {
    const video = await gw.token(['video:write']);
    for (const path of ['/system/v1/signing-keys', '/video/v1/signing-keys']) {
      const res = await gw.request('GET', path, { auth: video });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: { type: 'forbidden', messages: ['This access token lacks the system:read permission'] } });
      expect(res.headers.get('x-should-retry')).toBe('false');
    }
    expect((await gw.request('GET', '/video/v1/playback-restrictions', { auth: video })).status).toBe(200);
    expect(gw.signingKeys.listSigningKeys).not.toHaveBeenCalled();
  });

  it('lets a read-only token read but not write', async () => {
    const reader = await gw.token(['video:read', 'system:read']);
    expect((await gw.request('GET', '/video/v1/playback-restrictions', { auth: reader })).status).toBe(200);
    expect((await gw.request('GET', '/system/v1/signing-keys', { auth: reader })).status).toBe(200);
    const write = await gw.request('POST', '/system/v1/signing-keys', { auth: reader });
    expect(write.status).toBe(403);
    expect(write.body.error.messages).toEqual(['This access token lacks the system:write permission']);
    const vocab = await gw.request('POST', '/video/v1/transcription-vocabularies', { auth: reader, body: { phrases: ['x'] } });
    expect(vocab.status).toBe(403);
    expect(gw.signingKeys.createSigningKey).not.toHaveBeenCalled();
  });

  it('lets write include read', async () => {
    const system = await gw.token(['system:write']);
    expect((await gw.request('GET', '/system/v1/signing-keys', { auth: system })).status).toBe(200);
    expect((await gw.request('POST', '/system/v1/signing-keys', { auth: system })).status).toBe(201);
    expect((await gw.request('GET', '/video/v1/playback-restrictions', { auth: system })).status).toBe(403);
  });

  it('checks permissions before reading a body', async () => {
    const reader = await gw.token(['video:read']);
    const res = await gw.request('POST', '/video/v1/playback-restrictions', {
      auth: reader,
      rawBody: '{broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(403);
  });

  it('needs no credentials for /healthz and /openapi.json', async () => {
    expect((await gw.request('GET', '/healthz', { auth: null })).status).toBe(200);
    expect((await gw.request('GET', '/openapi.json', { auth: null })).status).toBe(200);
  });

  it('looks a token up once and trusts the result for at most 30 s', async () => {
    const token = await gw.token(['system:read']);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const before = gw.tokens.lookups;
      await gw.request('GET', '/system/v1/signing-keys', { auth: token });
      await gw.request('GET', '/system/v1/signing-keys', { auth: token });
      expect(gw.tokens.lookups - before).toBe(1);
      // a wrong secret is still refused while the id is cached
      unauthorized(await gw.request('GET', '/system/v1/signing-keys', { auth: { id: token.id, secret: 'guess' } }));
      await gw.tokens.revoke(token.id); // as the CLI does, in another process
      clock.mockReturnValue(now + 29_000);
      expect((await gw.request('GET', '/system/v1/signing-keys', { auth: token })).status).toBe(200);
      clock.mockReturnValue(now + 30_001);
      unauthorized(await gw.request('GET', '/system/v1/signing-keys', { auth: token }));
    } finally {
      clock.mockRestore();
    }
  });
});
