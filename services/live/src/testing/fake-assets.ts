import { DomainError } from '@platform/errors';
import { assets } from '@platform/proto';
import { AssetsPort } from '../live-streams/assets-port';

/** The assets service's checks as live streams see them: records requests; refuses when told to. */
export class FakeAssets implements AssetsPort {
  readonly checked: assets.CreateAssetRequest[] = [];
  refuse?: DomainError;

  async checkSettings(request: assets.CreateAssetRequest): Promise<void> {
    this.checked.push(request);
    if (this.refuse) throw this.refuse;
  }
}
