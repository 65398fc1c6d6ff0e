import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { Observable, of, throwError } from 'rxjs';
import { GrpcPlaybackIdResolver } from './grpc-playback-id-resolver';

const owner = (type: string, id: string, extra: Partial<assets.PlaybackIdOwner> = {}): Observable<assets.PlaybackIdOwner> =>
  of({ id: 'p', policy: 'public', object: { type, id }, status: 'ready', renditions: [], ...extra } as assets.PlaybackIdOwner);
const notFound = () => throwError(() => Object.assign(new Error('not found'), { code: GrpcStatus.NOT_FOUND }));

describe('GrpcPlaybackIdResolver', () => {
  it('an asset playback id names the asset', async () => {
    const resolver = new GrpcPlaybackIdResolver({ lookupPlaybackId: () => owner('asset', 'a1') }, { lookupPlaybackId: notFound });
    expect(await resolver.resolve('p')).toEqual({ asset_id: 'a1', live_stream_id: null });
  });

  it('a live stream playback id names the stream and the asset recording it', async () => {
    const resolver = new GrpcPlaybackIdResolver(
      { lookupPlaybackId: notFound },
      { lookupPlaybackId: () => owner('live_stream', 'ls1', { media_asset_id: 'a2' }) },
    );
    expect(await resolver.resolve('p')).toEqual({ asset_id: 'a2', live_stream_id: 'ls1' });
  });

  it('an id nobody knows resolves to undefined; another failure rejects (asked again later)', async () => {
    expect(await new GrpcPlaybackIdResolver({ lookupPlaybackId: notFound }, { lookupPlaybackId: notFound }).resolve('p')).toBeUndefined();
    const down = () => throwError(() => Object.assign(new Error('unavailable'), { code: GrpcStatus.UNAVAILABLE }));
    await expect(new GrpcPlaybackIdResolver({ lookupPlaybackId: down }, { lookupPlaybackId: notFound }).resolve('p')).rejects.toThrow('unavailable');
  });
});
