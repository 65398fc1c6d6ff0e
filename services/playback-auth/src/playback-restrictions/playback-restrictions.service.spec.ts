import { ErrorCode } from '@platform/errors';
import { unixSeconds } from '@platform/ids';
import { playbackAuth } from '@platform/proto';
import { fakeUnitOfWork, rejection } from '@platform/testing';
import { PlaybackRestrictionEntity } from './playback-restriction.entity';
import { PlaybackRestrictionRepository } from './playback-restriction.repository';
import { PlaybackRestrictionsService } from './playback-restrictions.service';
import { InMemoryPlaybackRestrictions } from '../testing/in-memory-playback-restrictions';

function setup() {
  const repository = new InMemoryPlaybackRestrictions();
  const { unitOfWork, manager, events } = fakeUnitOfWork();
  const service = new PlaybackRestrictionsService(repository as unknown as PlaybackRestrictionRepository, unitOfWork);
  return { service, repository, manager, events };
}

const create = (
  allowed_domains: string[],
  allow_no_referrer = false,
  user_agent?: playbackAuth.UserAgentRule,
): playbackAuth.CreatePlaybackRestrictionRequest => ({
  referrer: { allowed_domains, allow_no_referrer },
  user_agent,
});

/** Mux's defaults, what a restriction gets when no user-agent rule was sent. */
const DEFAULT_USER_AGENT = { allow_no_user_agent: true, allow_high_risk_user_agent: true };

/** A stored restriction created on 2024-01-01, so that any change now moves updated_at. */
function stored(repository: InMemoryPlaybackRestrictions, id: string, allowedDomains: string[], day = 1): PlaybackRestrictionEntity {
  const at = new Date(Date.UTC(2024, 0, day));
  const row = { id, allowedDomains, allowNoReferrer: false, allowNoUserAgent: true, allowHighRiskUserAgent: true, createdAt: at, updatedAt: at };
  repository.rows.set(id, row);
  return structuredClone(row);
}

describe('PlaybackRestrictionsService', () => {
  describe('create', () => {
    it('stores both rules and returns the restriction with Unix-second timestamps', async () => {
      const { service, repository, manager } = setup();
      const created = await service.create(create(['example.com', '*.example.org'], true, { allow_no_user_agent: false, allow_high_risk_user_agent: true }));

      const row = repository.rows.get(created.id)!;
      expect(row.allowedDomains).toEqual(['example.com', '*.example.org']);
      expect(row.allowNoReferrer).toBe(true);
      expect(row.allowNoUserAgent).toBe(false);
      expect(row.allowHighRiskUserAgent).toBe(true);
      expect(row.updatedAt).toEqual(row.createdAt);
      expect(repository.managers).toEqual([manager]);
      expect(created).toEqual({
        id: row.id,
        created_at: Number(unixSeconds(row.createdAt)),
        updated_at: Number(unixSeconds(row.createdAt)),
        referrer: { allowed_domains: ['example.com', '*.example.org'], allow_no_referrer: true },
        user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true },
      });
      expect(created.id).toMatch(/^[0-9A-Za-z]{32}$/);
    });

    it.each([
      ['both false', { allow_no_user_agent: false, allow_high_risk_user_agent: false }],
      ['only allow_no_user_agent', { allow_no_user_agent: true, allow_high_risk_user_agent: false }],
      ['only allow_high_risk_user_agent', { allow_no_user_agent: false, allow_high_risk_user_agent: true }],
    ])('keeps a user-agent rule with %s as sent', async (_name, userAgent) => {
      const { service, repository } = setup();
      const created = await service.create(create(['a.com'], false, userAgent));
      expect(created.user_agent).toEqual(userAgent);
      expect(repository.rows.get(created.id)).toMatchObject({
        allowNoUserAgent: userAgent.allow_no_user_agent,
        allowHighRiskUserAgent: userAgent.allow_high_risk_user_agent,
      });
    });

    it('gives a restriction without a user-agent rule Mux’s defaults, both true', async () => {
      const { service, repository } = setup();
      const created = await service.create(create(['a.com']));
      expect(created.user_agent).toEqual(DEFAULT_USER_AGENT);
      expect(repository.rows.get(created.id)).toMatchObject({ allowNoUserAgent: true, allowHighRiskUserAgent: true });
    });

    it('emits video.playback_restriction.created with the restriction as the REST API shows it', async () => {
      const { service, repository, events } = setup();
      const created = await service.create(create(['a.com'], false, { allow_no_user_agent: true, allow_high_risk_user_agent: false }));
      const row = repository.rows.get(created.id)!;
      expect(events).toEqual([
        {
          type: 'video.playback_restriction.created',
          object: { type: 'playback_restriction', id: created.id },
          data: {
            id: created.id,
            created_at: unixSeconds(row.createdAt),
            updated_at: unixSeconds(row.updatedAt),
            referrer: { allowed_domains: ['a.com'], allow_no_referrer: false },
            user_agent: { allow_no_user_agent: true, allow_high_risk_user_agent: false },
          },
        },
      ]);
    });

    it.each<[string, string[], string[]]>([
      ['the any-domain wildcard', ['*'], ['*']],
      ['a subdomain wildcard', ['*.example.com'], ['*.example.com']],
      ['a single-label host', ['localhost'], ['localhost']],
      ['an empty deny-all list', [], []],
      ['upper case, lowered', ['Example.COM', '*.Foo.Example.org'], ['example.com', '*.foo.example.org']],
      ['duplicates, once each in first order', ['b.com', 'a.com', 'B.com', 'a.com'], ['b.com', 'a.com']],
      ['ten entries', Array.from({ length: 10 }, (_, i) => `d${i}.example.com`), Array.from({ length: 10 }, (_, i) => `d${i}.example.com`)],
    ])('accepts %s', async (_name, input, expected) => {
      const { service, repository } = setup();
      const created = await service.create(create(input));
      expect(created.referrer?.allowed_domains).toEqual(expected);
      expect(repository.rows.get(created.id)!.allowedDomains).toEqual(expected);
    });

    it('rejects 11 entries, storing and emitting nothing', async () => {
      const { service, repository, events } = setup();
      const eleven = Array.from({ length: 11 }, (_, i) => `d${i}.example.com`);
      const error = await rejection(service.create(create(eleven)));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual(['referrer.allowed_domains: at most 10 entries are allowed, got 11']);
      expect(repository.rows.size).toBe(0);
      expect(events).toEqual([]);
    });

    it.each(['foo.*.com', '*example.com', '**.a.com', 'exa mple.com', 'example.com:80', 'https://example.com', ''])(
      'rejects %j naming the entry',
      async (bad) => {
        const { service, repository, events } = setup();
        const error = await rejection(service.create(create(['ok.example.com', bad])));
        expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
        expect(error.messages).toEqual([`referrer.allowed_domains[1]: ${JSON.stringify(bad)} is not a valid domain`]);
        expect(repository.rows.size).toBe(0);
        expect(events).toEqual([]);
      },
    );

    it('rejects a request without a referrer rule', async () => {
      const { service, repository } = setup();
      const error = await rejection(service.create({ referrer: undefined, user_agent: DEFAULT_USER_AGENT }));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual(['referrer: is required']);
      expect(repository.rows.size).toBe(0);
    });
  });

  describe('get and list', () => {
    it('gets a restriction', async () => {
      const { service, repository } = setup();
      stored(repository, 'r1', ['a.com']);
      expect(await service.get('r1')).toEqual({
        id: 'r1',
        created_at: 1704067200,
        updated_at: 1704067200,
        referrer: { allowed_domains: ['a.com'], allow_no_referrer: false },
        user_agent: DEFAULT_USER_AGENT,
      });
    });

    it('answers NOT_FOUND for an unknown id', async () => {
      const { service } = setup();
      const error = await rejection(service.get('nope'));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
      expect(error.messages).toEqual(['Playback restriction not found']);
    });

    it('lists newest first with total_row_count', async () => {
      const { service, repository } = setup();
      stored(repository, 'r1', ['a.com'], 1);
      stored(repository, 'r2', ['b.com'], 2);
      stored(repository, 'r3', ['c.com'], 3);
      const page1 = await service.list({ limit: 2, page: 1 });
      expect(page1.total_row_count).toBe(3);
      expect(page1.items.map((r) => r.id)).toEqual(['r3', 'r2']);
      const page2 = await service.list({ limit: 2, page: 2 });
      expect(page2).toEqual({
        total_row_count: 3,
        items: [
          {
            id: 'r1',
            created_at: 1704067200,
            updated_at: 1704067200,
            referrer: { allowed_domains: ['a.com'], allow_no_referrer: false },
            user_agent: DEFAULT_USER_AGENT,
          },
        ],
      });
      expect(await service.list({ limit: 2, page: 3 })).toEqual({ items: [], total_row_count: 3 });
    });

    it.each([
      [{ limit: 25, page: 1 }, 25, 0],
      [{ limit: 10, page: 3 }, 10, 20],
      [{ limit: 7, page: 2 }, 7, 7],
      [{ limit: 0, page: 0 }, 25, 0],
    ])('pages %j as limit %i offset %i', async (request, limit, offset) => {
      const { service, repository } = setup();
      const list = jest.spyOn(repository, 'list');
      await service.list(request);
      expect(list).toHaveBeenCalledWith(limit, offset);
    });
  });

  describe('updateReferrer', () => {
    it('replaces the whole rule, bumps updated_at and emits video.playback_restriction.updated', async () => {
      const { service, repository, events, manager } = setup();
      stored(repository, 'r1', ['a.com', '*.b.com']);
      repository.rows.get('r1')!.allowNoReferrer = true;

      const updated = await service.updateReferrer({ id: 'r1', referrer: { allowed_domains: ['C.com'], allow_no_referrer: false } });

      const row = repository.rows.get('r1')!;
      expect(row.allowedDomains).toEqual(['c.com']);
      expect(row.allowNoReferrer).toBe(false);
      expect(row.createdAt).toEqual(new Date(Date.UTC(2024, 0, 1)));
      expect(row.updatedAt.getTime()).toBeGreaterThan(row.createdAt.getTime());
      expect(Math.abs(row.updatedAt.getTime() - Date.now())).toBeLessThan(60_000);
      expect(repository.managers).toEqual([manager]);
      expect(updated).toEqual({
        id: 'r1',
        created_at: 1704067200,
        updated_at: Number(unixSeconds(row.updatedAt)),
        referrer: { allowed_domains: ['c.com'], allow_no_referrer: false },
        user_agent: DEFAULT_USER_AGENT,
      });
      expect(events).toEqual([
        {
          type: 'video.playback_restriction.updated',
          object: { type: 'playback_restriction', id: 'r1' },
          data: {
            id: 'r1',
            created_at: '1704067200',
            updated_at: unixSeconds(row.updatedAt),
            referrer: { allowed_domains: ['c.com'], allow_no_referrer: false },
            user_agent: DEFAULT_USER_AGENT,
          },
        },
      ]);
    });

    it('validates the new list, naming fields as the PUT body has them, and changes nothing', async () => {
      const { service, repository, events } = setup();
      stored(repository, 'r1', ['a.com']);
      const error = await rejection(service.updateReferrer({ id: 'r1', referrer: { allowed_domains: ['a.com', 'foo.*.com'], allow_no_referrer: true } }));
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
      expect(error.messages).toEqual(['allowed_domains[1]: "foo.*.com" is not a valid domain']);
      expect(repository.rows.get('r1')!.allowedDomains).toEqual(['a.com']);
      expect(events).toEqual([]);
    });

    it('answers NOT_FOUND for an unknown id and emits nothing', async () => {
      const { service, events } = setup();
      const error = await rejection(service.updateReferrer({ id: 'nope', referrer: { allowed_domains: ['a.com'], allow_no_referrer: false } }));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
      expect(events).toEqual([]);
    });
  });

  describe('updateUserAgent', () => {
    it('replaces the whole rule, keeps the referrer, bumps updated_at and emits video.playback_restriction.updated', async () => {
      const { service, repository, events, manager } = setup();
      stored(repository, 'r1', ['a.com']);

      const updated = await service.updateUserAgent({ id: 'r1', user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true } });

      const row = repository.rows.get('r1')!;
      expect(row).toMatchObject({ allowedDomains: ['a.com'], allowNoReferrer: false, allowNoUserAgent: false, allowHighRiskUserAgent: true });
      expect(row.createdAt).toEqual(new Date(Date.UTC(2024, 0, 1)));
      expect(row.updatedAt.getTime()).toBeGreaterThan(row.createdAt.getTime());
      expect(Math.abs(row.updatedAt.getTime() - Date.now())).toBeLessThan(60_000);
      expect(repository.managers).toEqual([manager]);
      expect(updated).toEqual({
        id: 'r1',
        created_at: 1704067200,
        updated_at: Number(unixSeconds(row.updatedAt)),
        referrer: { allowed_domains: ['a.com'], allow_no_referrer: false },
        user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true },
      });
      expect(events).toEqual([
        {
          type: 'video.playback_restriction.updated',
          object: { type: 'playback_restriction', id: 'r1' },
          data: {
            id: 'r1',
            created_at: '1704067200',
            updated_at: unixSeconds(row.updatedAt),
            referrer: { allowed_domains: ['a.com'], allow_no_referrer: false },
            user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: true },
          },
        },
      ]);
    });

    it('sets both flags back to the defaults when the request carries no rule', async () => {
      const { service, repository } = setup();
      stored(repository, 'r1', ['a.com']);
      Object.assign(repository.rows.get('r1')!, { allowNoUserAgent: false, allowHighRiskUserAgent: false });
      const updated = await service.updateUserAgent({ id: 'r1', user_agent: undefined });
      expect(updated.user_agent).toEqual(DEFAULT_USER_AGENT);
      expect(repository.rows.get('r1')).toMatchObject({ allowNoUserAgent: true, allowHighRiskUserAgent: true });
    });

    it('answers NOT_FOUND for an unknown id and emits nothing', async () => {
      const { service, events } = setup();
      const error = await rejection(service.updateUserAgent({ id: 'nope', user_agent: { allow_no_user_agent: false, allow_high_risk_user_agent: false } }));
      expect(error.code).toBe(ErrorCode.NOT_FOUND);
      expect(error.messages).toEqual(['Playback restriction not found']);
      expect(events).toEqual([]);
    });
  });

  describe('delete', () => {
    it('removes the restriction and emits video.playback_restriction.deleted with it as it was', async () => {
      const { service, repository, events } = setup();
      stored(repository, 'r1', ['a.com']);
      stored(repository, 'r2', ['b.com']);

      await service.delete('r1');

      expect([...repository.rows.keys()]).toEqual(['r2']);
      expect((await rejection(service.get('r1'))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(service.delete('r1'))).code).toBe(ErrorCode.NOT_FOUND);
      expect(await service.list({ limit: 25, page: 1 })).toMatchObject({ total_row_count: 1, items: [{ id: 'r2' }] });
      expect(events).toEqual([
        {
          type: 'video.playback_restriction.deleted',
          object: { type: 'playback_restriction', id: 'r1' },
          data: {
            id: 'r1',
            created_at: '1704067200',
            updated_at: '1704067200',
            referrer: { allowed_domains: ['a.com'], allow_no_referrer: false },
            user_agent: DEFAULT_USER_AGENT,
          },
        },
      ]);
    });
  });
});
