import { GrpcStatus } from '@platform/errors';
import { assets } from '@platform/proto';
import { Observable, of, throwError } from 'rxjs';

/**
 * The assets service as the playback host sees it: LookupPlaybackId over a map, NOT_FOUND
 * (as grpc-js reports it) for ids it does not hold. `lookups` counts the calls.
 */
export class FakeAssetsClient
  implements Pick<assets.AssetsServiceClient, 'lookupPlaybackId'>, Pick<assets.StaticRenditionsServiceClient, 'lookupStaticRendition' | 'lookupMasterAccess'>
{
  readonly owners = new Map<string, assets.PlaybackIdOwner>();
  readonly lookups: string[] = [];
  /** Ready static renditions, by `${assetId}/${name}`. */
  readonly readyFiles = new Set<string>();
  /** Valid master URL tokens → their asset. */
  readonly masters = new Map<string, string>();
  failure?: { code: number; details: string };

  add(playbackId: string, policy: 'public' | 'signed', assetId: string, status = 'ready'): void {
    this.owners.set(playbackId, { id: playbackId, policy, object: { type: 'asset', id: assetId }, status, renditions: [] });
  }

  lookupPlaybackId(request: { id: string }): Observable<assets.PlaybackIdOwner> {
    this.lookups.push(request.id);
    if (this.failure) return throwError(() => Object.assign(new Error(this.failure!.details), this.failure));
    const owner = this.owners.get(request.id);
    if (!owner) return throwError(() => Object.assign(new Error('5 NOT_FOUND'), { code: GrpcStatus.NOT_FOUND, details: '["Playback ID not found"]' }));
    return of(structuredClone(owner));
  }

  lookupStaticRendition(request: assets.LookupStaticRenditionRequest): Observable<assets.StaticRenditionFile> {
    if (!this.readyFiles.has(`${request.asset_id}/${request.name}`)) return notFound('Static rendition not found');
    return of({ name: request.name, ext: request.name.endsWith('.m4a') ? 'm4a' : 'mp4', asset_id: request.asset_id });
  }

  lookupMasterAccess(request: assets.LookupMasterAccessRequest): Observable<assets.MasterAccessGrant> {
    const assetId = this.masters.get(request.token);
    return assetId ? of({ asset_id: assetId, expires_at: 2_000_000_000 }) : notFound('Master not found');
  }
}

function notFound(message: string): Observable<never> {
  return throwError(() => Object.assign(new Error('5 NOT_FOUND'), { code: GrpcStatus.NOT_FOUND, details: JSON.stringify([message]) }));
}
