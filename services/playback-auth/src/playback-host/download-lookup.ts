import { Inject, Injectable } from '@nestjs/common';
import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { firstValueFrom, Observable, timeout, TimeoutError } from 'rxjs';
import { PlaybackError } from './playback-error';

/** Injection token of the assets service's StaticRenditionsService client. */
export const STATIC_RENDITIONS_SERVICE = Symbol('STATIC_RENDITIONS_SERVICE');

const LOOKUP_TIMEOUT_MS = 5000;

/** What the assets service says of downloadable files: a ready static rendition, a master URL's token. */
@Injectable()
export class DownloadLookup {
  constructor(
    @Inject(STATIC_RENDITIONS_SERVICE) private readonly renditions: Pick<assets.StaticRenditionsServiceClient, 'lookupStaticRendition' | 'lookupMasterAccess'>,
  ) {}

  /** The file when the asset has it ready; undefined otherwise. */
  staticRendition(assetId: string, name: string): Promise<assets.StaticRenditionFile | undefined> {
    return ask(() => this.renditions.lookupStaticRendition({ asset_id: assetId, name }));
  }

  /** The asset whose ready master the token names, while its URL is valid; undefined otherwise. */
  master(token: string): Promise<assets.MasterAccessGrant | undefined> {
    return ask(() => this.renditions.lookupMasterAccess({ token }));
  }
}

async function ask<T>(call: () => Observable<T>): Promise<T | undefined> {
  try {
    return await firstValueFrom(call().pipe(timeout(LOOKUP_TIMEOUT_MS)));
  } catch (err) {
    const code = (err as { code?: unknown } | undefined)?.code;
    if (code === GrpcStatus.NOT_FOUND) return undefined;
    if (err instanceof TimeoutError || code === GrpcStatus.UNAVAILABLE || code === GrpcStatus.DEADLINE_EXCEEDED) throw PlaybackError.unavailable();
    throw err;
  }
}
