import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { assets } from '@platform/proto';
import { PlaybackRestrictionsService } from '../playback-restrictions/playback-restrictions.service';
import { SigningKeysService } from '../signing-keys/signing-keys.service';
import { PlaybackError } from './playback-error';
import { PlaybackGrants } from './playback-grants';
import { PlaybackIdLookup, PlaybackOwner } from './playback-id-lookup';
import { VIDEO_AUDIENCE, verifyPlaybackToken } from './playback-token';
import { restrictionRefusal } from './restriction-check';

/** What a playback request brings that decides whether it may play. */
export interface PlaybackRequest {
  playbackId: string;
  /** `?token=`: the signed-playback JWT. */
  token?: string;
  /** `?grant=`: issued with the master playlist, on every child URL. */
  grant?: string;
  referer?: string;
  userAgent?: string;
}

/** A request allowed to play: which asset's files, and how to vouch for its children. */
export interface PlaybackAccess {
  playbackId: string;
  assetId: string;
  signed: boolean;
  playbackRestrictionId?: string;
  /** A live stream's playback id while it is live: the master of the sliding window, not of the whole recording. */
  liveEdge?: boolean;
  /** The full check only (the master): the asset's tracks its master lists besides its variants. */
  renditions?: assets.Track[];
}

/** An image request allowed: the access, who owns the playback id, and a signed id's token claims (image parameters may ride in them). */
export interface ImageAccess {
  access: PlaybackAccess;
  owner: PlaybackOwner;
  claims: Record<string, unknown>;
}

/**
 * Decides who may play (spec 2.7, 5.3, 5.5): the playback id must exist (deleted ids stop
 * at once), a signed one needs a valid token, a token's playback restriction is applied to
 * the Referer and User-Agent, and the asset must be ready. Children of the master carry a
 * grant that stands for all of that, except the restriction, which is checked on every
 * request as Mux does.
 */
@Injectable()
export class PlaybackAccessService {
  constructor(
    @Inject(PlaybackIdLookup) private readonly lookup: PlaybackIdLookup,
    @Inject(SigningKeysService) private readonly signingKeys: SigningKeysService,
    @Inject(PlaybackRestrictionsService) private readonly restrictions: PlaybackRestrictionsService,
    @Inject(PlaybackGrants) private readonly grants: PlaybackGrants,
  ) {}

  /** The full check: the master playlist, and a child URL that has no grant. */
  async authorize(request: PlaybackRequest): Promise<PlaybackAccess> {
    return (await this.check(request, VIDEO_AUDIENCE)).access;
  }

  /** The full check of an image request, its token for `audience` (`t` thumbnails, `g` animated images, `s` storyboards). */
  authorizeImage(request: PlaybackRequest, audience: string): Promise<ImageAccess> {
    return this.check(request, audience);
  }

  private async check(request: PlaybackRequest, audience: string): Promise<ImageAccess> {
    const owner = await this.lookup.find(request.playbackId);
    if (!owner) throw PlaybackError.notFound(request.playbackId);

    let playbackRestrictionId: string | undefined;
    let claims: Record<string, unknown> | undefined;
    if (owner.policy === 'signed') {
      const token = await verifyPlaybackToken(request.token, request.playbackId, (kid) => this.signingKeys.findActivePublicKey(kid), new Date(), audience);
      if (!token.ok) throw PlaybackError.forbidden(token.reason);
      playbackRestrictionId = token.grant.playbackRestrictionId;
      claims = token.grant.claims;
      await this.applyRestriction(playbackRestrictionId, request);
    }

    const assetId = this.playableAsset(request.playbackId, owner);
    const liveEdge = owner.type === 'live_stream' && owner.status === 'active';
    const access: PlaybackAccess = {
      playbackId: request.playbackId,
      assetId,
      signed: owner.policy === 'signed',
      ...(playbackRestrictionId ? { playbackRestrictionId } : {}),
      ...(liveEdge ? { liveEdge } : {}),
      ...(owner.type === 'asset' && owner.renditions.length > 0 ? { renditions: owner.renditions } : {}),
    };
    return { access, owner, claims: claims ?? {} };
  }

  /**
   * The asset whose HLS a playback id plays: a `ready` asset, or a live recording under way (its
   * whole playlist so far: DVR); for a live stream, its recording under way (played from the live
   * edge) or its latest one.
   */
  private playableAsset(playbackId: string, owner: PlaybackOwner): string {
    if (owner.type === 'live_stream') {
      if (!owner.mediaAssetId) throw new PlaybackError(HttpStatus.PRECONDITION_FAILED, `Live stream of playback ID ${playbackId} has not been live yet`);
      return owner.mediaAssetId;
    }
    if (owner.type !== 'asset')
      throw new PlaybackError(HttpStatus.PRECONDITION_FAILED, `Playback ID ${playbackId} belongs to a ${owner.type}, which this host does not play`);
    if (owner.status !== 'ready' && !owner.isLive) throw PlaybackError.notReady(playbackId, owner.status);
    return owner.id;
  }

  /** A variant playlist or segment: its grant when it has one (no lookup), else the full check. */
  async authorizeChild(request: PlaybackRequest): Promise<PlaybackAccess> {
    if (request.grant === undefined) return this.authorize(request);
    const check = this.grants.check(request.grant, request.playbackId);
    if (!check.ok) throw PlaybackError.forbidden(check.reason);
    const { a, r, s } = check.grant;
    await this.applyRestriction(r, request);
    return { playbackId: request.playbackId, assetId: a, signed: s === 1, ...(r ? { playbackRestrictionId: r } : {}) };
  }

  /** The grant the children of this master playlist carry. */
  grantFor(access: PlaybackAccess): string {
    return this.grants.issue({
      p: access.playbackId,
      a: access.assetId,
      ...(access.playbackRestrictionId ? { r: access.playbackRestrictionId } : {}),
      ...(access.signed ? { s: 1 as const } : {}),
    });
  }

  private async applyRestriction(id: string | undefined, request: PlaybackRequest): Promise<void> {
    if (id === undefined) return;
    const restriction = await this.restrictions.find(id);
    if (!restriction) throw PlaybackError.forbidden('The playback restriction named by the token does not exist');
    const refusal = restrictionRefusal(restriction, request.referer, request.userAgent);
    if (refusal) throw PlaybackError.forbidden(refusal);
  }
}
