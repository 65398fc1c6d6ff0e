import { api, sdk } from './support/context';

describe('playback restrictions (spec 2.7, 4.7)', () => {
  const mux = sdk();

  it('creates, reads, replaces the referrer list and the user-agent rule, and deletes', async () => {
    const created = await mux.video.playbackRestrictions.create({
      referrer: { allowed_domains: ['example.com', '*.Example.org'], allow_no_referrer: true },
      user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true },
    });
    expect(created.id).toBeTruthy();
    expect(created.created_at).toMatch(/^\d+$/);
    expect(created.updated_at).toMatch(/^\d+$/);
    expect(created.referrer).toEqual({ allowed_domains: ['example.com', '*.example.org'], allow_no_referrer: true });
    expect(created.user_agent).toEqual({ allow_no_user_agent: false, allow_high_risk_user_agent: true });

    expect(await mux.video.playbackRestrictions.retrieve(created.id)).toEqual(created);

    const updated = await mux.video.playbackRestrictions.updateReferrer(created.id, { allowed_domains: ['*'] });
    expect(updated.referrer).toEqual({ allowed_domains: ['*'], allow_no_referrer: false });
    expect(updated.user_agent).toEqual(created.user_agent);
    expect(Number(updated.updated_at)).toBeGreaterThanOrEqual(Number(created.updated_at));
    expect((await mux.video.playbackRestrictions.retrieve(created.id)).referrer.allowed_domains).toEqual(['*']);

    const agentUpdated = await mux.video.playbackRestrictions.updateUserAgent(created.id, { allow_no_user_agent: true, allow_high_risk_user_agent: false });
    expect(agentUpdated).toEqual({
      ...updated,
      updated_at: agentUpdated.updated_at,
      user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: false },
    });
    expect(Number(agentUpdated.updated_at)).toBeGreaterThanOrEqual(Number(updated.updated_at));
    expect(await mux.video.playbackRestrictions.retrieve(created.id)).toEqual(agentUpdated);

    await mux.video.playbackRestrictions.delete(created.id);
    const gone = await api('GET', `/video/v1/playback-restrictions/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { type: 'not_found', messages: expect.any(Array) } });
  });

  it('defaults allow_no_referrer to false and accepts an empty deny-all list', async () => {
    const r = await mux.video.playbackRestrictions.create({
      referrer: { allowed_domains: [] },
      user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: true },
    });
    expect(r.referrer).toEqual({ allowed_domains: [], allow_no_referrer: false });
  });

  it('gives user_agent flags that are left out Mux’s defaults (true), on create and on PUT …/user_agent', async () => {
    const withoutRule = await api('POST', '/video/v1/playback-restrictions', { body: { referrer: { allowed_domains: ['ua.test'] } } });
    expect(withoutRule.status).toBe(201);
    expect(withoutRule.body.data.user_agent).toEqual({ allow_no_user_agent: true, allow_high_risk_user_agent: true });
    const id = withoutRule.body.data.id;
    expect((await mux.video.playbackRestrictions.retrieve(id)).user_agent).toEqual({ allow_no_user_agent: true, allow_high_risk_user_agent: true });

    const oneFlag = await api('POST', '/video/v1/playback-restrictions', {
      body: { referrer: { allowed_domains: ['ua.test'] }, user_agent: { allow_high_risk_user_agent: false } },
    });
    expect(oneFlag.status).toBe(201);
    expect(oneFlag.body.data.user_agent).toEqual({ allow_no_user_agent: true, allow_high_risk_user_agent: false });

    await mux.video.playbackRestrictions.updateUserAgent(id, { allow_no_user_agent: false, allow_high_risk_user_agent: false });
    const reset = await api('PUT', `/video/v1/playback-restrictions/${id}/user_agent`, { body: { allow_no_user_agent: false } });
    expect(reset.status).toBe(200);
    expect(reset.body.data.user_agent).toEqual({ allow_no_user_agent: false, allow_high_risk_user_agent: true });
    expect((await mux.video.playbackRestrictions.retrieve(id)).user_agent).toEqual({ allow_no_user_agent: false, allow_high_risk_user_agent: true });
  });

  it('rejects a user_agent flag of the wrong type with 400 naming the field, changing nothing', async () => {
    const before = (await api('GET', '/video/v1/playback-restrictions?limit=1')).body.total_row_count;
    const create = await api('POST', '/video/v1/playback-restrictions', {
      body: { referrer: { allowed_domains: ['a.test'] }, user_agent: { allow_no_user_agent: 'yes', allow_high_risk_user_agent: true } },
    });
    expect(create.status).toBe(400);
    expect(create.body).toEqual({ error: { type: 'invalid_parameters', messages: ['user_agent.allow_no_user_agent: must be a boolean, not a string'] } });
    expect((await api('GET', '/video/v1/playback-restrictions?limit=1')).body.total_row_count).toBe(before);

    const r = await mux.video.playbackRestrictions.create({
      referrer: { allowed_domains: ['a.test'] },
      user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: false },
    });
    const put = await api('PUT', `/video/v1/playback-restrictions/${r.id}/user_agent`, { body: { allow_no_user_agent: 'yes' } });
    expect(put.status).toBe(400);
    expect(put.body).toEqual({ error: { type: 'invalid_parameters', messages: ['allow_no_user_agent: must be a boolean, not a string'] } });
    expect(put.headers.get('x-should-retry')).toBe('false');
    expect(await mux.video.playbackRestrictions.retrieve(r.id)).toEqual(r);
  });

  it('lists with total_row_count, page and limit', async () => {
    for (let i = 0; i < 3; i++)
      await mux.video.playbackRestrictions.create({
        referrer: { allowed_domains: [`site${i}.test`] },
        user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: true },
      });
    const page = await api('GET', '/video/v1/playback-restrictions?limit=2&page=1');
    expect(page.status).toBe(200);
    expect(page.body.limit).toBe(2);
    expect(page.body.page).toBe(1);
    expect(page.body.total_row_count).toBeGreaterThanOrEqual(3);
    expect(page.body.data).toHaveLength(2);
    const ids = [];
    for await (const r of mux.video.playbackRestrictions.list({ limit: 2 })) ids.push(r.id);
    expect(ids.length).toBe(page.body.total_row_count);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('rejects more than 10 domains and malformed wildcards, writing nothing', async () => {
    const before = (await api('GET', '/video/v1/playback-restrictions?limit=1')).body.total_row_count;
    const eleven = Array.from({ length: 11 }, (_, i) => `d${i}.example.com`);
    const tooMany = await api('POST', '/video/v1/playback-restrictions', { body: { referrer: { allowed_domains: eleven } } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.type).toBe('invalid_parameters');
    expect(tooMany.body.error.messages.join(' ')).toMatch(/allowed_domains/);
    expect(tooMany.headers.get('x-should-retry')).toBe('false');
    for (const bad of ['foo.*.com', '*example.com', 'exa mple.com', '**.a.com']) {
      const res = await api('POST', '/video/v1/playback-restrictions', { body: { referrer: { allowed_domains: [bad] } } });
      expect(res.status).toBe(400);
      expect(res.body.error.messages.join(' ')).toContain('allowed_domains');
    }
    const after = (await api('GET', '/video/v1/playback-restrictions?limit=1')).body.total_row_count;
    expect(after).toBe(before);
  });

  it('answers 404 for an unknown restriction on every route', async () => {
    for (const [method, path, body] of [
      ['GET', '/video/v1/playback-restrictions/nope', undefined],
      ['DELETE', '/video/v1/playback-restrictions/nope', undefined],
      ['PUT', '/video/v1/playback-restrictions/nope/referrer', { allowed_domains: ['a.com'] }],
      ['PUT', '/video/v1/playback-restrictions/nope/user_agent', { allow_no_user_agent: false, allow_high_risk_user_agent: false }],
    ] as const) {
      const res = await api(method, path, { body });
      expect(res.status).toBe(404);
      expect(res.body.error.type).toBe('not_found');
    }
  });
});
