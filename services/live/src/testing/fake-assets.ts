import { DomainError } from '@platform/errors';
import { assets } from '@platform/proto';
import { AssetsPort } from '../live-streams/assets-port';

/** The assets service's checks as live streams see them: records requests; refuses when told to. */
export class FakeAssets implements AssetsPort {
  readonly checked: assets.CreateAssetRequest[] = [];
  refuse?: DomainError;

  readonly created: assets.CreateAssetRequest[] = [];
  readonly probes: assets.RecordProbeRequest[] = [];
  readonly ready: string[] = [];
  readonly errored: Array<{ assetId: string; errors: assets.AssetErrors }> = [];
  readonly trackStatuses: Array<{ assetId: string; trackId: string; status: string }> = [];

  checkSettings(request: assets.CreateAssetRequest): Promise<void> {
    this.checked.push(request);
    return this.refuse ? Promise.reject(this.refuse) : Promise.resolve();
  }

  createAsset(request: assets.CreateAssetRequest): Promise<assets.Asset> {
    this.created.push(request);
    return Promise.resolve({ id: `asset-${this.created.length}`, status: 'preparing' } as assets.Asset);
  }

  recordProbe(request: assets.RecordProbeRequest): Promise<assets.Track[]> {
    this.probes.push(request);
    return Promise.resolve(request.tracks.map((t, i) => ({ ...t, id: `track-${i + 1}` })));
  }

  markReady(assetId: string): Promise<void> {
    this.ready.push(assetId);
    return Promise.resolve();
  }

  markErrored(assetId: string, errors: assets.AssetErrors): Promise<void> {
    this.errored.push({ assetId, errors });
    return Promise.resolve();
  }

  setTrackStatus(assetId: string, trackId: string, status: 'ready' | 'errored'): Promise<void> {
    this.trackStatuses.push({ assetId, trackId, status });
    return Promise.resolve();
  }
}
