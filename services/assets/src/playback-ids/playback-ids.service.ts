import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { Emit, UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { assets } from '@platform/proto';
import { EntityManager } from 'typeorm';
import { AssetEntity } from '../assets/asset.entity';
import { ASSET_EVENTS, emitAssetEvent } from '../assets/asset-events';
import { toPlaybackIdMessage } from '../assets/asset.mapper';
import { AssetRepository } from '../assets/asset.repository';
import { validPlaybackPolicy } from '../assets/asset-settings';
import { notFound as assetNotFound } from '../assets/assets.service';
import { playbackRenditions } from '../tracks/stored-track';
import { PlaybackIdEntity } from './playback-id.entity';
import { PlaybackIdRepository } from './playback-id.repository';

/**
 * Playback ids of assets (spec 4.2) and the lookup of any playback id (4.4, and the playback
 * host). Adding or removing one changes the asset: its updated_at moves and
 * video.asset.updated is emitted with the asset as it now is.
 */
@Injectable()
export class PlaybackIdsService {
  constructor(
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(PlaybackIdRepository) private readonly playbackIds: PlaybackIdRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(request: assets.CreatePlaybackIdRequest): Promise<assets.PlaybackId> {
    const policy = validPlaybackPolicy(request.policy);
    return this.unitOfWork.run(async (manager, emit) => {
      if (!(await this.assets.lockById(manager, request.asset_id))) throw assetNotFound();
      const now = new Date();
      const playbackId: PlaybackIdEntity = { id: newId(), assetId: request.asset_id, policy, createdAt: now };
      await this.playbackIds.insert(manager, [playbackId]);
      await this.assetChanged(manager, emit, request.asset_id, now);
      return toPlaybackIdMessage(playbackId);
    });
  }

  async get(request: assets.AssetPlaybackIdRequest): Promise<assets.PlaybackId> {
    const playbackId = await this.playbackIds.findById(request.playback_id);
    if (!playbackId || playbackId.assetId !== request.asset_id) throw await this.whichNotFound(request.asset_id);
    return toPlaybackIdMessage(playbackId);
  }

  /** New playback with the id fails at once (the playback host looks it up on every master playlist). */
  async delete(request: assets.AssetPlaybackIdRequest): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      if (!(await this.assets.lockById(manager, request.asset_id))) throw assetNotFound();
      if (!(await this.playbackIds.delete(manager, request.asset_id, request.playback_id))) throw notFound();
      await this.assetChanged(manager, emit, request.asset_id, new Date());
    });
  }

  /**
   * GET /video/v1/playback-ids/{id}: the owner, and for the playback host its status, track renditions,
   * thumbnail_time (when set) and duration (once known).
   */
  async lookup(id: string): Promise<assets.PlaybackIdOwner> {
    const playbackId = await this.playbackIds.findById(id);
    const asset = playbackId ? await this.assets.findById(playbackId.assetId) : null;
    if (!playbackId || !asset) throw notFound();
    const isLive = asset.status === 'preparing' && (asset.ingestType === 'live_rtmp' || asset.ingestType === 'live_srt');
    return {
      id: playbackId.id,
      policy: playbackId.policy,
      object: { type: 'asset', id: asset.id },
      status: asset.status,
      ...(isLive ? { is_live: true } : {}),
      renditions: playbackRenditions(asset.tracks),
      ...(asset.thumbnailTime !== null ? { thumbnail_time: asset.thumbnailTime } : {}),
      ...(asset.duration !== null ? { duration: asset.duration } : {}),
    };
  }

  private async assetChanged(manager: EntityManager, emit: Emit, assetId: string, at: Date): Promise<AssetEntity> {
    const asset = await this.assets.update(manager, assetId, { updatedAt: at });
    if (!asset) throw assetNotFound();
    emitAssetEvent(emit, ASSET_EVENTS.updated, asset, await this.playbackIds.findByAssetId(assetId, manager));
    return asset;
  }

  /** An unknown asset says so; a known asset without that playback id names the playback id. */
  private async whichNotFound(assetId: string): Promise<DomainError> {
    return (await this.assets.findById(assetId)) ? notFound() : assetNotFound();
  }
}

function notFound(): DomainError {
  return DomainError.notFound('Playback ID');
}
