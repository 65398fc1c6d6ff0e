import Mux from '@mux/mux-node';
import { PlatformConfig } from '@platform/config';
import { GrpcStatus } from '@platform/errors';
import { assets, live } from '@platform/proto';
import { fakeUnitOfWork } from '@platform/testing';
import { PlaybackRestrictionRepository } from '../playback-restrictions/playback-restriction.repository';
import { PlaybackRestrictionsService } from '../playback-restrictions/playback-restrictions.service';
import { SigningKeyRepository } from '../signing-keys/signing-key.repository';
import { SigningKeysService } from '../signing-keys/signing-keys.service';
import { FakeAssetsClient, InMemoryPlaybackRestrictions, InMemorySigningKeys } from '../testing';
import { PlaybackAccessService, PlaybackRequest } from './playback-access.service';
import { PlaybackError } from './playback-error';
import { PlaybackGrants } from './playback-grants';
import { PlaybackIdLookup } from './playback-id-lookup';

const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9' });

function setup() {
  const assetsClient = new FakeAssetsClient();
  const liveClient = new FakeAssetsClient();
  const { unitOfWork } = fakeUnitOfWork();
  const keys = new SigningKeysService(new InMemorySigningKeys() as unknown as SigningKeyRepository, unitOfWork);
  const restrictions = new PlaybackRestrictionsService(new InMemoryPlaybackRestrictions() as unknown as PlaybackRestrictionRepository, unitOfWork);
  const grants = new PlaybackGrants({ playback: { grantSecret: 'test-secret', grantSeconds: 3600 } } as PlatformConfig);
  const access = new PlaybackAccessService(
    new PlaybackIdLookup(assetsClient as unknown as assets.AssetsServiceClient, liveClient as unknown as live.LiveStreamsServiceClient),
    keys,
    restrictions,
    grants,
  );
  return { assetsClient, liveClient, keys, restrictions, grants, access };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlaybackError);
  return { status: (error as PlaybackError).getStatus(), message: (error as PlaybackError).message };
}

describe('PlaybackAccessService', () => {
  describe('the full check (master playlist)', () => {
    it('plays a ready public asset and ignores any token', async () => {
      const { assetsClient, access } = setup();
      assetsClient.add('pub1', 'public', 'asset-1');
      expect(await access.authorize({ playbackId: 'pub1', token: 'garbage' })).toEqual({ playbackId: 'pub1', assetId: 'asset-1', signed: false });
      expect(assetsClient.lookups).toEqual(['pub1']);
    });

    it('answers an unknown or deleted playback id with 404', async () => {
      const { access } = setup();
      expect(await refusal(access.authorize({ playbackId: 'gone' }))).toEqual({ status: 404, message: 'Playback ID gone not found' });
    });

    it('plays a live stream’s id from the asset its recording goes into (from the live edge while active), and answers 412 before any broadcast', async () => {
      const { liveClient, access } = setup();
      liveClient.owners.set('live1', {
        id: 'live1',
        policy: 'public',
        object: { type: 'live_stream', id: 'ls1' },
        status: 'active',
        media_asset_id: 'rec1',
        renditions: [],
      });
      liveClient.owners.set('live2', { id: 'live2', policy: 'public', object: { type: 'live_stream', id: 'ls2' }, status: 'idle', renditions: [] });
      liveClient.owners.set('live3', {
        id: 'live3',
        policy: 'public',
        object: { type: 'live_stream', id: 'ls3' },
        status: 'idle',
        media_asset_id: 'rec3',
        renditions: [],
      });
      expect(await access.authorize({ playbackId: 'live1' })).toEqual({ playbackId: 'live1', assetId: 'rec1', signed: false, liveEdge: true });
      expect(await refusal(access.authorize({ playbackId: 'live2' }))).toEqual({
        status: 412,
        message: 'Live stream of playback ID live2 has not been live yet',
      });
      expect(await access.authorize({ playbackId: 'live3' })).toEqual({ playbackId: 'live3', assetId: 'rec3', signed: false });
    });

    it('plays a live recording under way on its own playback id (DVR), though it is still preparing', async () => {
      const { assetsClient, access } = setup();
      assetsClient.owners.set('rec1', {
        id: 'rec1',
        policy: 'public',
        object: { type: 'asset', id: 'asset-1' },
        status: 'preparing',
        is_live: true,
        renditions: [],
      });
      expect(await access.authorize({ playbackId: 'rec1' })).toEqual({ playbackId: 'rec1', assetId: 'asset-1', signed: false });
    });

    it.each(['preparing', 'errored'])('answers an asset in status %s with 412, as Mux does for an asset that is not ready', async (status) => {
      const { assetsClient, access } = setup();
      assetsClient.add('pub1', 'public', 'asset-1', status);
      expect(await refusal(access.authorize({ playbackId: 'pub1' }))).toEqual({
        status: 412,
        message: `Playback ID pub1 is not ready to play (asset status: ${status})`,
      });
    });

    it('checks the token of a signed id before telling whether its asset is ready', async () => {
      const { assetsClient, access } = setup();
      assetsClient.add('sig1', 'signed', 'asset-1', 'preparing');
      expect(await refusal(access.authorize({ playbackId: 'sig1' }))).toEqual({ status: 403, message: 'Token is required for a signed playback ID' });
    });

    it('answers 503 when the assets service is unreachable', async () => {
      const { assetsClient, access } = setup();
      assetsClient.failure = { code: GrpcStatus.UNAVAILABLE, details: 'No connection established' };
      expect(await refusal(access.authorize({ playbackId: 'pub1' }))).toEqual({ status: 503, message: 'Playback is temporarily unavailable; try again' });
    });

    it('plays a signed id with a valid SDK token, and refuses it without', async () => {
      const { assetsClient, keys, access } = setup();
      assetsClient.add('sig1', 'signed', 'asset-1');
      const key = await keys.create();
      const token = await mux.jwt.signPlaybackId('sig1', { keyId: key.id, keySecret: key.private_key! });
      expect(await access.authorize({ playbackId: 'sig1', token })).toEqual({ playbackId: 'sig1', assetId: 'asset-1', signed: true });
      expect((await refusal(access.authorize({ playbackId: 'sig1', token: 'x' }))).status).toBe(403);
    });
  });

  describe('playback restrictions named by the token', () => {
    async function restricted(
      referrer: { allowed_domains: string[]; allow_no_referrer: boolean },
      userAgent?: { allow_no_user_agent: boolean; allow_high_risk_user_agent: boolean },
    ) {
      const ctx = setup();
      ctx.assetsClient.add('sig1', 'signed', 'asset-1');
      const key = await ctx.keys.create();
      const restriction = await ctx.restrictions.create({ referrer, user_agent: userAgent });
      const token = await mux.jwt.signPlaybackId('sig1', { keyId: key.id, keySecret: key.private_key!, params: { playback_restriction_id: restriction.id } });
      const request = (headers: Partial<PlaybackRequest>): PlaybackRequest => ({ playbackId: 'sig1', token, userAgent: 'hls.js', ...headers });
      return { ...ctx, restriction, token, request };
    }

    it('allows a Referer the rule allows and carries the restriction id', async () => {
      const { access, request, restriction } = await restricted({ allowed_domains: ['*.example.com'], allow_no_referrer: false });
      expect(await access.authorize(request({ referer: 'https://www.example.com/watch?v=1' }))).toEqual({
        playbackId: 'sig1',
        assetId: 'asset-1',
        signed: true,
        playbackRestrictionId: restriction.id,
      });
    });

    it('refuses a Referer of another domain, and a missing Referer when allow_no_referrer is false', async () => {
      const { access, request } = await restricted({ allowed_domains: ['*.example.com'], allow_no_referrer: false });
      expect(await refusal(access.authorize(request({ referer: 'https://example.com/' })))).toEqual({
        status: 403,
        message: 'The Referer domain is not allowed by the playback restriction',
      });
      expect(await refusal(access.authorize(request({ referer: 'https://evil.test/' })))).toEqual({
        status: 403,
        message: 'The Referer domain is not allowed by the playback restriction',
      });
      expect(await refusal(access.authorize(request({})))).toEqual({ status: 403, message: 'A Referer header is required by the playback restriction' });
    });

    it('allows no Referer with allow_no_referrer, and follows a rule changed after the token was made', async () => {
      const { access, request, restrictions, restriction } = await restricted({ allowed_domains: [], allow_no_referrer: true });
      expect((await access.authorize(request({}))).playbackRestrictionId).toBe(restriction.id);
      expect((await refusal(access.authorize(request({ referer: 'https://a.com/' })))).status).toBe(403);
      await restrictions.updateReferrer({ id: restriction.id, referrer: { allowed_domains: ['a.com'], allow_no_referrer: false } });
      expect((await access.authorize(request({ referer: 'https://a.com/' }))).assetId).toBe('asset-1');
      expect((await refusal(access.authorize(request({})))).status).toBe(403);
    });

    it('refuses a token naming a restriction that does not exist (or was deleted)', async () => {
      const { access, request, restrictions, restriction } = await restricted({ allowed_domains: ['*'], allow_no_referrer: true });
      await restrictions.delete(restriction.id);
      expect(await refusal(access.authorize(request({})))).toEqual({ status: 403, message: 'The playback restriction named by the token does not exist' });
    });

    it('applies allow_no_user_agent: false to an empty User-Agent; high-risk detection is not enforced', async () => {
      const { access, request } = await restricted(
        { allowed_domains: ['*'], allow_no_referrer: true },
        { allow_no_user_agent: false, allow_high_risk_user_agent: false },
      );
      expect(await refusal(access.authorize(request({ userAgent: undefined })))).toEqual({
        status: 403,
        message: 'A User-Agent header is required by the playback restriction',
      });
      expect(await refusal(access.authorize(request({ userAgent: ' ' })))).toEqual({
        status: 403,
        message: 'A User-Agent header is required by the playback restriction',
      });
      expect((await access.authorize(request({ userAgent: 'curl/8.0' }))).assetId).toBe('asset-1');
    });

    it('with the default user-agent rule, no User-Agent is fine', async () => {
      const { access, request } = await restricted({ allowed_domains: ['*'], allow_no_referrer: true });
      expect((await access.authorize(request({ userAgent: undefined }))).assetId).toBe('asset-1');
    });
  });

  describe('children (variant playlists, segments)', () => {
    it('with a grant: no lookup, the asset from the grant, even after the playback id is deleted', async () => {
      const { assetsClient, access } = setup();
      assetsClient.add('pub1', 'public', 'asset-1');
      const granted = await access.authorize({ playbackId: 'pub1' });
      const grant = access.grantFor(granted);
      assetsClient.owners.delete('pub1');

      expect(await access.authorizeChild({ playbackId: 'pub1', grant })).toEqual({ playbackId: 'pub1', assetId: 'asset-1', signed: false });
      expect(assetsClient.lookups).toEqual(['pub1']);
      expect((await refusal(access.authorize({ playbackId: 'pub1' }))).status).toBe(404);
    });

    it('without a grant: the full check, so ?token= on a child URL works too', async () => {
      const { assetsClient, keys, access } = setup();
      assetsClient.add('sig1', 'signed', 'asset-1');
      const key = await keys.create();
      const token = await mux.jwt.signPlaybackId('sig1', { keyId: key.id, keySecret: key.private_key! });
      expect(await refusal(access.authorizeChild({ playbackId: 'sig1' }))).toEqual({ status: 403, message: 'Token is required for a signed playback ID' });
      expect(await access.authorizeChild({ playbackId: 'sig1', token })).toEqual({ playbackId: 'sig1', assetId: 'asset-1', signed: true });
      expect(assetsClient.lookups).toEqual(['sig1', 'sig1']);
    });

    it('refuses a grant of another playback id, a tampered one and an expired one', async () => {
      const { assetsClient, access, grants } = setup();
      assetsClient.add('pub1', 'public', 'asset-1');
      const grant = access.grantFor(await access.authorize({ playbackId: 'pub1' }));
      expect(await refusal(access.authorizeChild({ playbackId: 'pub2', grant }))).toEqual({ status: 403, message: 'Grant is for another playback ID' });
      expect(await refusal(access.authorizeChild({ playbackId: 'pub1', grant: `${grant.slice(0, -2)}xx` }))).toEqual({
        status: 403,
        message: 'Grant signature is invalid',
      });
      const old = grants.issue({ p: 'pub1', a: 'asset-1' }, Date.now() - 3601_000);
      expect(await refusal(access.authorizeChild({ playbackId: 'pub1', grant: old }))).toEqual({
        status: 403,
        message: 'Grant is expired; load the playlist again',
      });
      // a token does not rescue a bad grant
      expect((await refusal(access.authorizeChild({ playbackId: 'pub1', grant: 'junk', token: 'x' }))).status).toBe(403);
    });

    it('checks the restriction of the grant on every child request, against that request`s Referer', async () => {
      const { assetsClient, keys, restrictions, access } = setup();
      assetsClient.add('sig1', 'signed', 'asset-1');
      const key = await keys.create();
      const restriction = await restrictions.create({ referrer: { allowed_domains: ['example.com'], allow_no_referrer: false }, user_agent: undefined });
      const token = await mux.jwt.signPlaybackId('sig1', { keyId: key.id, keySecret: key.private_key!, params: { playback_restriction_id: restriction.id } });
      const grant = access.grantFor(await access.authorize({ playbackId: 'sig1', token, referer: 'https://example.com/' }));

      expect(await access.authorizeChild({ playbackId: 'sig1', grant, referer: 'https://example.com/player' })).toEqual({
        playbackId: 'sig1',
        assetId: 'asset-1',
        signed: true,
        playbackRestrictionId: restriction.id,
      });
      expect((await refusal(access.authorizeChild({ playbackId: 'sig1', grant, referer: 'https://evil.test/' }))).status).toBe(403);
      expect((await refusal(access.authorizeChild({ playbackId: 'sig1', grant }))).message).toBe('A Referer header is required by the playback restriction');
      await restrictions.delete(restriction.id);
      expect((await refusal(access.authorizeChild({ playbackId: 'sig1', grant, referer: 'https://example.com/' }))).message).toBe(
        'The playback restriction named by the token does not exist',
      );
    });
  });
});
