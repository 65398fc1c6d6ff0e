import { Inject, Injectable } from '@nestjs/common';
import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { PlaybackError } from './playback-error';

/** Injection token of the assets service's gRPC client (`assets.AssetsServiceClient`). */
export const ASSETS_SERVICE = Symbol('ASSETS_SERVICE');

const LOOKUP_TIMEOUT_MS = 5000;

/** What the playback host needs to know of a playback id. */
export interface PlaybackOwner {
  playbackId: string;
  policy: 'public' | 'signed';
  /** `asset` (live streams later). */
  type: string;
  id: string;
  /** The owner's status: `preparing`, `ready`, `errored` for assets. */
  status: string;
}

/** Resolves playback ids through the assets service (AssetsService.LookupPlaybackId). */
@Injectable()
export class PlaybackIdLookup {
  constructor(@Inject(ASSETS_SERVICE) private readonly assets: assets.AssetsServiceClient) {}

  /** The owner, or undefined when the playback id does not exist (never did, or was deleted). */
  async find(playbackId: string): Promise<PlaybackOwner | undefined> {
    let owner: assets.PlaybackIdOwner;
    try {
      owner = await firstValueFrom(this.assets.lookupPlaybackId({ id: playbackId }).pipe(timeout(LOOKUP_TIMEOUT_MS)));
    } catch (err) {
      if (grpcCode(err) === GrpcStatus.NOT_FOUND) return undefined;
      if (err instanceof TimeoutError || grpcCode(err) === GrpcStatus.UNAVAILABLE || grpcCode(err) === GrpcStatus.DEADLINE_EXCEEDED) {
        throw PlaybackError.unavailable();
      }
      throw err;
    }
    return {
      playbackId: owner.id,
      // anything but public needs a token: an unknown policy never plays openly
      policy: owner.policy === 'public' ? 'public' : 'signed',
      type: owner.object?.type ?? '',
      id: owner.object?.id ?? '',
      status: owner.status,
    };
  }
}

function grpcCode(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'number' ? err.code : undefined;
}
