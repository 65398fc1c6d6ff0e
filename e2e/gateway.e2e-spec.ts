import { api, platform, sdk } from './support/context';

describe('gateway: health, auth, errors, OpenAPI (spec 1, 5, 7)', () => {
  it('answers /healthz without credentials once every service is ready', async () => {
    const res = await api('GET', '/healthz', { auth: null });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    for (const name of ['assets', 'live', 'uploads', 'playback-auth', 'spaces', 'web-inputs', 'analytics', 'transcoder', 'webhooks']) {
      expect(res.body.services[name]).toBe('ok');
    }
  });

  it('refuses missing or wrong credentials with 401 and the error body', async () => {
    const none = await api('GET', '/system/v1/signing-keys', { auth: null });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: { type: 'unauthorized', messages: expect.any(Array) } });
    expect(none.headers.get('x-should-retry')).toBe('false');
    const wrong = await api('GET', '/system/v1/signing-keys', { auth: { tokenId: platform.tokenId, tokenSecret: 'wrong' } });
    expect(wrong.status).toBe(401);
    await expect(sdk({ tokenId: 'nobody', tokenSecret: 'nothing' }).system.signingKeys.create()).rejects.toMatchObject({ status: 401 });
  });

  it('does not read the body of a caller it refuses (401 before 400 or 415)', async () => {
    for (const [rawBody, contentType] of [
      ['{"referrer":', 'application/json'],
      ['referrer=a', 'application/x-www-form-urlencoded'],
    ]) {
      const res = await api('POST', '/video/v1/playback-restrictions', { auth: null, rawBody, headers: { 'content-type': contentType } });
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe('unauthorized');
    }
  });

  it('serves an OpenAPI document generated from the code', async () => {
    const res = await api('GET', '/openapi.json', { auth: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    for (const path of [
      '/system/v1/signing-keys',
      '/video/v1/playback-restrictions/{PLAYBACK_RESTRICTION_ID}/referrer',
      '/video/v1/playback-restrictions/{PLAYBACK_RESTRICTION_ID}/user_agent',
      '/video/v1/transcription-vocabularies',
    ]) {
      const found = Object.keys(res.body.paths).some((p) => p.replace(/\{[^}]+\}/g, '{}') === path.replace(/\{[^}]+\}/g, '{}'));
      expect(found).toBe(true);
    }
  });

  it('rejects malformed JSON, wrong content types and unknown routes with the error body', async () => {
    const malformed = await api('POST', '/video/v1/playback-restrictions', { rawBody: '{"referrer":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.type).toBe('invalid_parameters');
    const wrongType = await api('POST', '/video/v1/transcription-vocabularies', {
      rawBody: 'phrases=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.messages.length).toBeGreaterThan(0);
    const unknown = await api('GET', '/video/v1/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found');
  });

  it('rejects wrong types and bad paging before anything is written', async () => {
    const badType = await api('POST', '/video/v1/playback-restrictions', { body: { referrer: { allowed_domains: ['a.com'], allow_no_referrer: 'yes' } } });
    expect(badType.status).toBe(400);
    expect(badType.body.error.messages.join(' ')).toMatch(/allow_no_referrer/);
    for (const query of ['limit=0', 'limit=abc', 'page=0']) {
      const res = await api('GET', `/system/v1/signing-keys?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.messages.join(' ')).toMatch(/limit|page/);
    }
    // a limit above the maximum is the maximum (issue 12: clamped, as Mux answers)
    expect((await api('GET', '/system/v1/signing-keys?limit=101')).status).toBe(200);
  });
});
