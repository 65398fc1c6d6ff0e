import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { Observable, of, throwError } from 'rxjs';

/**
 * The assets service as the playback host sees it: LookupPlaybackId over a map, NOT_FOUND
 * (as grpc-js reports it) for ids it does not hold. `lookups` counts the calls.
 */
export class FakeAssetsClient implements Pick<assets.AssetsServiceClient, 'lookupPlaybackId'> {
  readonly owners = new Map<string, assets.PlaybackIdOwner>();
  readonly lookups: string[] = [];
  failure?: { code: number; details: string };

  add(playbackId: string, policy: 'public' | 'signed', assetId: string, status = 'ready'): void {
    this.owners.set(playbackId, { id: playbackId, policy, object: { type: 'asset', id: assetId }, status });
  }

  lookupPlaybackId(request: { id: string }): Observable<assets.PlaybackIdOwner> {
    this.lookups.push(request.id);
    if (this.failure) return throwError(() => Object.assign(new Error(this.failure!.details), this.failure));
    const owner = this.owners.get(request.id);
    if (!owner) return throwError(() => Object.assign(new Error('5 NOT_FOUND'), { code: GrpcStatus.NOT_FOUND, details: '["Playback ID not found"]' }));
    return of(structuredClone(owner));
  }
}
