import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { DomainError, ErrorCode } from '@platform/errors';
import { unixSeconds } from '@platform/ids';
import { assets } from '@platform/proto';
import { assetKeys, OBJECT_STORE, ObjectStore } from '@platform/storage';
import { MASTER_ACCESS } from '../assets/asset-settings';
import { toAssetMessage } from '../assets/asset.mapper';
import { AssetRepository } from '../assets/asset.repository';
import { Clock, CLOCK } from '../clock';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { DownloadChanges } from '../static-renditions/download-changes';
import { decideMasterAccess, decideMasterExpiry, decideMasterPlan, decideMasterRecord, MasterGrant } from './master-decisions';

/**
 * The temporary master MP4 (spec 2.1 `master`, 4.2 master-access). Its URL carries a random 256-bit
 * token kept with the asset: the playback host serves the file to whoever has the URL, asking this
 * service each time (LookupMasterAccess), so `none` and the end of the window stop it at once, and no
 * key is shared between services.
 */
@Injectable()
export class MasterAccessService {
  constructor(
    @Inject(DownloadChanges) private readonly changes: DownloadChanges,
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(PlaybackIdRepository) private readonly playbackIds: PlaybackIdRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async update(request: assets.UpdateMasterAccessRequest): Promise<assets.Asset> {
    if (!(MASTER_ACCESS as readonly string[]).includes(request.master_access)) {
      throw DomainError.invalid(`master_access: must be one of ${MASTER_ACCESS.map((v) => JSON.stringify(v)).join(', ')}`);
    }
    const { asset } = await this.changes.apply(request.asset_id, (a) => decideMasterAccess(a, request.master_access, this.clock.now()));
    return toAssetMessage(asset, await this.playbackIds.findByAssetId(asset.id));
  }

  /** The asset a master URL's token names, while its master is ready and the URL has not expired; NOT_FOUND otherwise. */
  async lookup(token: string): Promise<assets.MasterAccessGrant> {
    const asset = token ? await this.assets.findByMasterToken(token) : null;
    if (!asset || asset.masterStatus !== 'ready' || !asset.masterExpiresAt || asset.masterExpiresAt <= this.clock.now()) {
      throw DomainError.notFound('Master');
    }
    return { asset_id: asset.id, expires_at: Number(unixSeconds(asset.masterExpiresAt)) };
  }

  async plan(assetId: string): Promise<assets.MasterWork> {
    return (await this.changes.apply(assetId, decideMasterPlan)).result;
  }

  async record(request: assets.RecordMasterRequest): Promise<assets.Asset> {
    const stored = request.status === 'ready' && (await this.store.stat(assetKeys.master(request.asset_id))) !== undefined;
    const grant = this.newGrant();
    const { asset } = await this.changes.apply(request.asset_id, (a) => decideMasterRecord(a, request.status, grant, stored));
    return toAssetMessage(asset, await this.playbackIds.findByAssetId(asset.id));
  }

  /** The sweeper's: master_access back to `none` once the URL expired (checked again under the lock). */
  async expire(assetId: string): Promise<boolean> {
    try {
      return (await this.changes.apply(assetId, (a) => decideMasterExpiry(a, this.clock.now()))).result;
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return false; // deleted meanwhile
      throw err;
    }
  }

  private newGrant(): MasterGrant {
    const token = randomBytes(32).toString('base64url');
    return {
      token,
      url: `${this.config.streamBaseUrl}/master/${token}/master.mp4`,
      expiresAt: new Date(this.clock.now().getTime() + this.config.masterAccessSeconds * 1000),
    };
  }
}
