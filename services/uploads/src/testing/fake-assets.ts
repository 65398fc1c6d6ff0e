import { DomainError } from '@platform/errors';
import { assets } from '@platform/proto';
import { AssetsPort } from '../uploads/assets-port';

/** The assets service as the uploads service sees it: records requests, one asset per upload_id. */
export class FakeAssets implements AssetsPort {
  readonly created: assets.CreateAssetRequest[] = [];
  readonly checked: assets.CreateAssetRequest[] = [];
  /** Thrown by the next calls (a DomainError is a refusal; anything else an outage). */
  failCreate?: Error;
  refuseSettings?: DomainError;
  private readonly byUpload = new Map<string, assets.Asset>();

  async checkSettings(request: assets.CreateAssetRequest): Promise<void> {
    this.checked.push(request);
    if (this.refuseSettings) throw this.refuseSettings;
  }

  async createAsset(request: assets.CreateAssetRequest): Promise<assets.Asset> {
    if (this.failCreate) throw this.failCreate;
    this.created.push(request);
    const existing = this.byUpload.get(request.upload_id ?? '');
    if (existing) return existing;
    const asset = { id: `asset-of-${request.upload_id}`, status: 'preparing', upload_id: request.upload_id } as assets.Asset;
    this.byUpload.set(request.upload_id ?? '', asset);
    return asset;
  }

  /** Distinct assets made. */
  get assetCount(): number {
    return this.byUpload.size;
  }
}
