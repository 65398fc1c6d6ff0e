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
  readonly trackStatuses: Array<{ assetId: string; trackId: string; status: string }> = [];

  async checkSettings(request: assets.CreateAssetRequest): Promise<void> {
    this.checked.push(request);
    if (this.refuse) throw this.refuse;
  }

  async createAsset(request: assets.CreateAssetRequest): Promise<assets.Asset> {
    this.created.push(request);
    return { id: `asset-${this.created.length}`, status: 'preparing' } as assets.Asset;
  }

  async recordProbe(request: assets.RecordProbeRequest): Promise<assets.Track[]> {
    this.probes.push(request);
    return request.tracks.map((t, i) => ({ ...t, id: `track-${i + 1}` }));
  }

  async markReady(assetId: string): Promise<void> {
    this.ready.push(assetId);
  }

  async setTrackStatus(assetId: string, trackId: string, status: 'ready' | 'errored'): Promise<void> {
    this.trackStatuses.push({ assetId, trackId, status });
  }
}
