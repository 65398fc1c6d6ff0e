import { GrpcStatus } from '@platform/errors';
import { assets, live } from '@platform/proto';
import { firstValueFrom, Observable, timeout } from 'rxjs';
import { PlaybackIdResolution, PlaybackIdResolver } from '../views/playback-id-resolver';

const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * A view's playback id → its asset or live stream, asked of the owners' services (the assets
 * service, then the live service: ids are random, at most one knows one). A live stream's id
 * also names the asset recording it. Unknown ids resolve to undefined; other failures reject,
 * so the view builder asks again on the view's next batch.
 */
export class GrpcPlaybackIdResolver implements PlaybackIdResolver {
  constructor(
    private readonly assets: Pick<assets.AssetsServiceClient, 'lookupPlaybackId'>,
    private readonly live: Pick<live.LiveStreamsServiceClient, 'lookupPlaybackId'>,
  ) {}

  async resolve(playbackId: string): Promise<PlaybackIdResolution | undefined> {
    const owner = (await ask(() => this.assets.lookupPlaybackId({ id: playbackId }))) ?? (await ask(() => this.live.lookupPlaybackId({ id: playbackId })));
    if (!owner?.object) return undefined;
    if (owner.object.type === 'live_stream') return { asset_id: owner.media_asset_id ?? null, live_stream_id: owner.object.id };
    return { asset_id: owner.object.id, live_stream_id: null };
  }
}

async function ask(lookup: () => Observable<assets.PlaybackIdOwner>): Promise<assets.PlaybackIdOwner | undefined> {
  try {
    return await firstValueFrom(lookup().pipe(timeout(LOOKUP_TIMEOUT_MS)));
  } catch (err) {
    if (typeof err === 'object' && err !== null && 'code' in err && err.code === GrpcStatus.NOT_FOUND) return undefined;
    throw err;
  }
}
