import { Inject, Injectable } from '@nestjs/common';
import { GrpcStatus } from '@platform/errors';
import { assets, live } from '@platform/proto';
import { firstValueFrom, Observable, timeout, TimeoutError } from 'rxjs';
import { PlaybackError } from './playback-error';

/** Injection token of the assets service's gRPC client (`assets.AssetsServiceClient`). */
export const ASSETS_SERVICE = Symbol('ASSETS_SERVICE');
/** Injection token of the live service's gRPC client (`live.LiveStreamsServiceClient`). */
export const LIVE_STREAMS_SERVICE = Symbol('LIVE_STREAMS_SERVICE');

const LOOKUP_TIMEOUT_MS = 5000;

/** What the playback host needs to know of a playback id. */
export interface PlaybackOwner {
  playbackId: string;
  policy: 'public' | 'signed';
  /** `asset` or `live_stream`. */
  type: string;
  id: string;
  /** The owner's status: `preparing`, `ready`, `errored` for assets; `idle`, `active`, `disabled` for live streams. */
  status: string;
  /** Live streams: the asset whose HLS plays (the recording under way, else the latest). */
  mediaAssetId?: string;
  /** Assets: a live recording under way. */
  isLive?: boolean;
  /** Assets: the tracks the master lists besides its variants (ready text and alternate audio tracks, and the primary audio). */
  renditions: assets.Track[];
  /** Assets: the media time of thumbnails asked for without one (Mux's `thumbnail_time`), when set. */
  thumbnailTime?: number;
  /** Assets: seconds, once known. */
  duration?: number;
}

/**
 * Resolves playback ids through their owners' services: the assets service, then the live service
 * (ids are random, so at most one knows an id).
 */
@Injectable()
export class PlaybackIdLookup {
  constructor(
    @Inject(ASSETS_SERVICE) private readonly assets: assets.AssetsServiceClient,
    @Inject(LIVE_STREAMS_SERVICE) private readonly live: live.LiveStreamsServiceClient,
  ) {}

  /** The owner, or undefined when the playback id does not exist (never did, or was deleted). */
  async find(playbackId: string): Promise<PlaybackOwner | undefined> {
    const owner =
      (await this.ask(() => this.assets.lookupPlaybackId({ id: playbackId }))) ?? (await this.ask(() => this.live.lookupPlaybackId({ id: playbackId })));
    if (!owner) return undefined;
    return {
      playbackId: owner.id,
      // anything but public needs a token: an unknown policy never plays openly
      policy: owner.policy === 'public' ? 'public' : 'signed',
      type: owner.object?.type ?? '',
      id: owner.object?.id ?? '',
      status: owner.status,
      ...(owner.media_asset_id ? { mediaAssetId: owner.media_asset_id } : {}),
      ...(owner.is_live ? { isLive: true } : {}),
      renditions: owner.renditions ?? [],
      ...(owner.thumbnail_time !== undefined ? { thumbnailTime: owner.thumbnail_time } : {}),
      ...(owner.duration !== undefined ? { duration: owner.duration } : {}),
    };
  }

  private async ask(lookup: () => Observable<assets.PlaybackIdOwner>): Promise<assets.PlaybackIdOwner | undefined> {
    try {
      return await firstValueFrom(lookup().pipe(timeout(LOOKUP_TIMEOUT_MS)));
    } catch (err) {
      if (grpcCode(err) === GrpcStatus.NOT_FOUND) return undefined;
      if (err instanceof TimeoutError || grpcCode(err) === GrpcStatus.UNAVAILABLE || grpcCode(err) === GrpcStatus.DEADLINE_EXCEEDED) {
        throw PlaybackError.unavailable();
      }
      throw err;
    }
  }
}

function grpcCode(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'number' ? err.code : undefined;
}
