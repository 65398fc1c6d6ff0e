import { GrpcStatus } from '@platform/errors';
import { grpcError, reply, TestGateway } from '../testing/test-gateway';

const DEFAULT_USER_AGENT = { allow_no_user_agent: true, allow_high_risk_user_agent: true };

const restriction = (domains: string[], allowNoReferrer = false, userAgent = DEFAULT_USER_AGENT) => ({
  id: 'r1',
  created_at: 1700000000,
  updated_at: 1700000500,
  referrer: { allowed_domains: domains, allow_no_referrer: allowNoReferrer },
  user_agent: userAgent,
});

describe('playback restriction routes (spec 2.7, 4.7)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await TestGateway.start();
  });
  afterAll(() => gw.stop());
  beforeEach(() => jest.clearAllMocks());

  it('creates with lower-cased domains and the user-agent rule, answering 201 with string timestamps', async () => {
    const userAgent = { allow_no_user_agent: false, allow_high_risk_user_agent: true };
    gw.playbackRestrictions.createPlaybackRestriction.mockReturnValue(reply(restriction(['example.com', '*.example.org'], true, userAgent)));
    const res = await gw.request('POST', '/video/v1/playback-restrictions', {
      body: { referrer: { allowed_domains: ['Example.COM', '*.Example.org'], allow_no_referrer: true }, user_agent: userAgent },
    });
    expect(gw.playbackRestrictions.createPlaybackRestriction).toHaveBeenCalledWith({
      referrer: { allowed_domains: ['example.com', '*.example.org'], allow_no_referrer: true },
      user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: {
        id: 'r1',
        created_at: '1700000000',
        updated_at: '1700000500',
        referrer: { allowed_domains: ['example.com', '*.example.org'], allow_no_referrer: true },
        user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true },
      },
    });
  });

  it('defaults allow_no_referrer to false and accepts [] and ["*"]', async () => {
    gw.playbackRestrictions.createPlaybackRestriction.mockReturnValue(reply(restriction([])));
    await gw.request('POST', '/video/v1/playback-restrictions', { body: { referrer: { allowed_domains: [] } } });
    expect(gw.playbackRestrictions.createPlaybackRestriction).toHaveBeenLastCalledWith({
      referrer: { allowed_domains: [], allow_no_referrer: false },
      user_agent: DEFAULT_USER_AGENT,
    });
    await gw.request('POST', '/video/v1/playback-restrictions', { body: { referrer: { allowed_domains: ['*'] } } });
    expect(gw.playbackRestrictions.createPlaybackRestriction).toHaveBeenLastCalledWith({
      referrer: { allowed_domains: ['*'], allow_no_referrer: false },
      user_agent: DEFAULT_USER_AGENT,
    });
  });

  it.each([
    ['left out', undefined, DEFAULT_USER_AGENT],
    ['empty', {}, DEFAULT_USER_AGENT],
    ['with allow_no_user_agent only', { allow_no_user_agent: false }, { allow_no_user_agent: false, allow_high_risk_user_agent: true }],
    ['with allow_high_risk_user_agent only', { allow_high_risk_user_agent: false }, { allow_no_user_agent: true, allow_high_risk_user_agent: false }],
  ])('sends Mux’s defaults (true) for a user_agent %s', async (_label, userAgent, sent) => {
    gw.playbackRestrictions.createPlaybackRestriction.mockReturnValue(reply(restriction(['a.test'], false, sent)));
    const res = await gw.request('POST', '/video/v1/playback-restrictions', { body: { referrer: { allowed_domains: ['a.test'] }, user_agent: userAgent } });
    expect(res.status).toBe(201);
    expect(gw.playbackRestrictions.createPlaybackRestriction).toHaveBeenCalledWith({
      referrer: { allowed_domains: ['a.test'], allow_no_referrer: false },
      user_agent: sent,
    });
    expect(res.body.data.user_agent).toEqual(sent);
  });

  it.each([
    [
      '11 domains',
      { referrer: { allowed_domains: Array.from({ length: 11 }, (_, i) => `d${i}.example.com`) } },
      ['referrer.allowed_domains: must have at most 10 entries'],
    ],
    [
      'a wildcard inside a name',
      { referrer: { allowed_domains: ['ok.com', 'fine.org', 'foo.*.com'] } },
      ['referrer.allowed_domains[2]: "foo.*.com" is not a valid domain (use *, a hostname or *.hostname)'],
    ],
    [
      'a wildcard without a dot',
      { referrer: { allowed_domains: ['*foo'] } },
      ['referrer.allowed_domains[0]: "*foo" is not a valid domain (use *, a hostname or *.hostname)'],
    ],
    [
      'a string for a boolean',
      { referrer: { allowed_domains: ['a.com'], allow_no_referrer: 'yes' } },
      ['referrer.allow_no_referrer: must be a boolean, not a string'],
    ],
    ['a string for the list', { referrer: { allowed_domains: 'a.com' } }, ['referrer.allowed_domains: must be an array, not a string']],
    ['a number in the list', { referrer: { allowed_domains: [42] } }, ['referrer.allowed_domains[0]: must be a string, not a number']],
    ['an unknown nested field', { referrer: { allowed_domains: ['a.com'], colour: 'red' } }, ['referrer.colour: is not a known field']],
    ['an unknown top-level field', { referrer: { allowed_domains: ['a.com'] }, extra: 1 }, ['extra: is not a known field']],
    [
      'a string for a user_agent flag',
      { referrer: { allowed_domains: ['a.com'] }, user_agent: { allow_no_user_agent: 'yes' } },
      ['user_agent.allow_no_user_agent: must be a boolean, not a string'],
    ],
    [
      'a number for a user_agent flag',
      { referrer: { allowed_domains: ['a.com'] }, user_agent: { allow_high_risk_user_agent: 1 } },
      ['user_agent.allow_high_risk_user_agent: must be a boolean, not a number'],
    ],
    [
      'an unknown user_agent field',
      { referrer: { allowed_domains: ['a.com'] }, user_agent: { allow_bots: true } },
      ['user_agent.allow_bots: is not a known field'],
    ],
    ['a boolean for user_agent', { referrer: { allowed_domains: ['a.com'] }, user_agent: true }, ['user_agent: must be an object, not a boolean']],
    ['no referrer', {}, ['referrer: is required']],
    ['an array body', [], ['body: must be an object, not an array']],
  ])('refuses %s with 400 naming the field, calling nothing', async (_label, body, messages) => {
    const res = await gw.request('POST', '/video/v1/playback-restrictions', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages } });
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(gw.playbackRestrictions.createPlaybackRestriction).not.toHaveBeenCalled();
  });

  it('lists with total_row_count, page and limit (defaults 1 and 25)', async () => {
    gw.playbackRestrictions.listPlaybackRestrictions.mockReturnValue(reply({ items: [restriction(['a.com'])], total_row_count: 3 }));
    const res = await gw.request('GET', '/video/v1/playback-restrictions');
    expect(gw.playbackRestrictions.listPlaybackRestrictions).toHaveBeenCalledWith({ limit: 25, page: 1 });
    expect(res.body).toEqual({
      data: [
        {
          id: 'r1',
          created_at: '1700000000',
          updated_at: '1700000500',
          referrer: { allowed_domains: ['a.com'], allow_no_referrer: false },
          user_agent: DEFAULT_USER_AGENT,
        },
      ],
      total_row_count: 3,
      page: 1,
      limit: 25,
    });
    gw.playbackRestrictions.listPlaybackRestrictions.mockReturnValue(reply({ items: [], total_row_count: 3 }));
    const past = await gw.request('GET', '/video/v1/playback-restrictions?limit=2&page=9');
    expect(past.body).toEqual({ data: [], total_row_count: 3, page: 9, limit: 2 });
  });

  it('reads one and deletes with 204', async () => {
    gw.playbackRestrictions.getPlaybackRestriction.mockReturnValue(reply(restriction(['a.com'])));
    const one = await gw.request('GET', '/video/v1/playback-restrictions/r1');
    expect(one.body.data.referrer).toEqual({ allowed_domains: ['a.com'], allow_no_referrer: false });
    expect(one.body.data.user_agent).toEqual(DEFAULT_USER_AGENT);
    expect(gw.playbackRestrictions.getPlaybackRestriction).toHaveBeenCalledWith({ id: 'r1' });
    gw.playbackRestrictions.deletePlaybackRestriction.mockReturnValue(reply({}));
    const del = await gw.request('DELETE', '/video/v1/playback-restrictions/r1');
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
  });

  it('replaces the referrer rule with PUT …/referrer', async () => {
    gw.playbackRestrictions.updateReferrer.mockReturnValue(reply(restriction(['*'])));
    const res = await gw.request('PUT', '/video/v1/playback-restrictions/r1/referrer', { body: { allowed_domains: ['*'] } });
    expect(gw.playbackRestrictions.updateReferrer).toHaveBeenCalledWith({ id: 'r1', referrer: { allowed_domains: ['*'], allow_no_referrer: false } });
    expect(res.status).toBe(200);
    expect(res.body.data.referrer).toEqual({ allowed_domains: ['*'], allow_no_referrer: false });
    const bad = await gw.request('PUT', '/video/v1/playback-restrictions/r1/referrer', { body: { allowed_domains: ['exa mple.com'] } });
    expect(bad.body.error.messages).toEqual(['allowed_domains[0]: "exa mple.com" is not a valid domain (use *, a hostname or *.hostname)']);
    expect(gw.playbackRestrictions.updateReferrer).toHaveBeenCalledTimes(1);
  });

  it('replaces the user-agent rule with PUT …/user_agent', async () => {
    const userAgent = { allow_no_user_agent: false, allow_high_risk_user_agent: false };
    gw.playbackRestrictions.updateUserAgent.mockReturnValue(reply(restriction(['a.com'], false, userAgent)));
    const res = await gw.request('PUT', '/video/v1/playback-restrictions/r1/user_agent', { body: userAgent });
    expect(gw.playbackRestrictions.updateUserAgent).toHaveBeenCalledWith({ id: 'r1', user_agent: userAgent });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: 'r1',
        created_at: '1700000000',
        updated_at: '1700000500',
        referrer: { allowed_domains: ['a.com'], allow_no_referrer: false },
        user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: false },
      },
    });
  });

  it.each([
    ['an empty body', {}, DEFAULT_USER_AGENT],
    ['allow_no_user_agent only', { allow_no_user_agent: false }, { allow_no_user_agent: false, allow_high_risk_user_agent: true }],
    ['allow_high_risk_user_agent only', { allow_high_risk_user_agent: false }, { allow_no_user_agent: true, allow_high_risk_user_agent: false }],
  ])('gives the flags PUT …/user_agent leaves out their defaults: %s', async (_label, body, sent) => {
    gw.playbackRestrictions.updateUserAgent.mockReturnValue(reply(restriction(['a.com'], false, sent)));
    const res = await gw.request('PUT', '/video/v1/playback-restrictions/r1/user_agent', { body });
    expect(res.status).toBe(200);
    expect(gw.playbackRestrictions.updateUserAgent).toHaveBeenCalledWith({ id: 'r1', user_agent: sent });
  });

  it.each([
    ['a string for a flag', { allow_no_user_agent: 'yes' }, ['allow_no_user_agent: must be a boolean, not a string']],
    ['null for a flag', { allow_high_risk_user_agent: null }, ['allow_high_risk_user_agent: must be a boolean, not null']],
    ['an unknown field', { allow_no_user_agent: true, allowed_domains: ['a.com'] }, ['allowed_domains: is not a known field']],
    ['an array body', [], ['body: must be an object, not an array']],
  ])('refuses PUT …/user_agent with %s: 400 naming the field, calling nothing', async (_label, body, messages) => {
    const res = await gw.request('PUT', '/video/v1/playback-restrictions/r1/user_agent', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: 'invalid_parameters', messages } });
    expect(gw.playbackRestrictions.updateUserAgent).not.toHaveBeenCalled();
  });

  it('passes the service’s 404 through for PUT …/user_agent', async () => {
    gw.playbackRestrictions.updateUserAgent.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Playback restriction not found']));
    const res = await gw.request('PUT', '/video/v1/playback-restrictions/nope/user_agent', { body: { allow_no_user_agent: false } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { type: 'not_found', messages: ['Playback restriction not found'] } });
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(gw.playbackRestrictions.updateUserAgent).toHaveBeenCalledWith({
      id: 'nope',
      user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true },
    });
  });

  it('passes the service’s own 400 and 404 messages through', async () => {
    gw.playbackRestrictions.updateReferrer.mockReturnValue(grpcError(GrpcStatus.NOT_FOUND, ['Playback restriction not found']));
    const res = await gw.request('PUT', '/video/v1/playback-restrictions/nope/referrer', { body: { allowed_domains: ['a.com'] } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { type: 'not_found', messages: ['Playback restriction not found'] } });
  });
});
