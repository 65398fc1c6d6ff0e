import { passthroughProblems } from '@platform/api-rules';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { Emit, UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { assets } from '@platform/proto';
import { assetKeys, OBJECT_STORE, ObjectStore, uploadKeys } from '@platform/storage';
import { EntityManager } from 'typeorm';
import { PlaybackIdEntity } from '../playback-ids/playback-id.entity';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { emitDownloadEvents } from '../static-renditions/download-events';
import { initialDownloads } from '../static-renditions/download-state';
import { inputTracks } from '../tracks/stored-track';
import { AssetEntity, StoredInput } from './asset.entity';
import { ASSET_EVENTS, emitAssetEvent, emitTrackEvent, TRACK_EVENTS } from './asset-events';
import { toAssetMessage } from './asset.mapper';
import { AssetChanges, AssetRepository } from './asset.repository';
import { validAssetSettings } from './asset-settings';
import { ClipCut, ClipSources } from './clip-source';
import { thumbnailTimeBeyondDuration, thumbnailTimeProblems } from './thumbnail-time';

export const DEFAULT_LIMIT = 25;

/**
 * Assets as the gateway sees them (spec 2.1, 2.2, 4.2). The gateway validates requests
 * first; the rules are checked again here so no caller can store a bad asset.
 */
@Injectable()
export class AssetsService {
  private readonly logger = new Logger('AssetsService');
  private readonly clipSources: ClipSources;

  constructor(
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(PlaybackIdRepository) private readonly playbackIds: PlaybackIdRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {
    this.clipSources = new ClipSources(assets, store);
  }

  /**
   * A new asset is `preparing`; video.asset.created starts the transcoder. Its text and audio inputs
   * and generated subtitles are tracks, `preparing`, each with video.asset.track.created (their tasks
   * run once the asset is ready). An upload has one asset: a repeated create for the same upload_id
   * (the uploads service retrying) returns it. A clip's source is checked first (ClipSources) and its
   * cut stored with it.
   */
  async create(request: assets.CreateAssetRequest): Promise<assets.Asset> {
    const { playbackPolicies, classified, staticRenditions, ...settings } = validAssetSettings(request);
    const clip = classified.clipSourceAssetId === undefined ? undefined : await this.clipCut(classified.clipSourceAssetId, settings.inputs[0]);
    if (settings.uploadId) {
      const existing = await this.assets.findByUploadId(settings.uploadId);
      if (existing) return toAssetMessage(existing, await this.playbackIds.findByAssetId(existing.id));
    }
    const now = new Date();
    const downloads = initialDownloads({ ...settings, staticRenditions }, now, newId);
    const asset: AssetEntity = {
      id: newId(),
      status: 'preparing',
      ...settings,
      sourceAssetId: clip?.sourceAssetId ?? null,
      clipStartTime: clip?.startTime ?? null,
      clipEndTime: clip?.endTime ?? null,
      duration: null,
      recordingTimes: null,
      maxStoredResolution: null,
      resolutionTier: null,
      maxStoredFrameRate: null,
      aspectRatio: null,
      tracks: inputTracks(classified.stored, classified.roles),
      nonStandardInputReasons: null,
      inputInfo: null,
      errors: null,
      ...downloads.fields,
      thumbnailTime: null,
      createdAt: now,
      updatedAt: null,
    };
    const playbackIds: PlaybackIdEntity[] = playbackPolicies.map((policy) => ({ id: newId(), assetId: asset.id, policy, createdAt: now }));
    try {
      await this.unitOfWork.run(async (manager, emit) => {
        await this.assets.insert(manager, asset);
        await this.playbackIds.insert(manager, playbackIds);
        emitAssetEvent(emit, ASSET_EVENTS.created, asset, playbackIds);
        for (const track of asset.tracks) emitTrackEvent(emit, TRACK_EVENTS.created, asset, track);
        emitDownloadEvents(emit, asset, playbackIds, downloads.events);
      });
    } catch (err) {
      // A concurrent create for the same upload won the unique index: return its asset.
      const winner = isUniqueViolation(err) && settings.uploadId ? await this.assets.findByUploadId(settings.uploadId) : null;
      if (!winner) throw err;
      return toAssetMessage(winner, await this.playbackIds.findByAssetId(winner.id));
    }
    return toAssetMessage(asset, playbackIds);
  }

  private clipCut(sourceAssetId: string, input: StoredInput): Promise<ClipCut> {
    return this.clipSources.resolve(sourceAssetId, input.start_time, input.end_time);
  }

  /** CreateAsset's checks alone (uploads validate their new_asset_settings with them). */
  checkSettings(request: assets.CreateAssetRequest): void {
    validAssetSettings(request);
  }

  async get(id: string): Promise<assets.Asset> {
    const asset = await this.assets.findById(id);
    if (!asset) throw notFound();
    return toAssetMessage(asset, await this.playbackIds.findByAssetId(id));
  }

  /** Newest first; `limit` (25) and `page` (1) page by whole pages; optional owner filters. */
  async list(request: assets.ListAssetsRequest): Promise<assets.AssetList> {
    const limit = request.limit > 0 ? request.limit : DEFAULT_LIMIT;
    const page = request.page > 0 ? request.page : 1;
    const items = await this.assets.list({
      limit,
      offset: (page - 1) * limit,
      liveStreamId: request.live_stream_id,
      uploadId: request.upload_id,
    });
    const playbackIds = await this.playbackIds.findByAssetIds(items.map((a) => a.id));
    return { items: items.map((a) => toAssetMessage(a, playbackIds.get(a.id) ?? [])) };
  }

  /**
   * PATCH: passthrough (an empty string clears it) and Mux's thumbnail_time (seconds, 0 to 12 hours,
   * within the asset's duration once that is known; stored as given before). Every field is checked
   * before anything is written, the duration on the locked row; one video.asset.updated with the change.
   */
  async update(request: assets.UpdateAssetRequest): Promise<assets.Asset> {
    const { passthrough, thumbnail_time: thumbnailTime } = request;
    if (passthrough === undefined && thumbnailTime === undefined) throw DomainError.invalid('body: give at least one of passthrough, thumbnail_time');
    const invalid: string[] = [];
    invalid.push(...passthroughProblems(passthrough));
    if (thumbnailTime !== undefined) invalid.push(...thumbnailTimeProblems(thumbnailTime));
    if (invalid.length > 0) throw DomainError.invalid(...invalid);
    return this.unitOfWork.run(async (manager, emit) => {
      const asset = await this.assets.lockById(manager, request.id);
      if (!asset) throw notFound();
      const beyond = thumbnailTime === undefined ? undefined : thumbnailTimeBeyondDuration(thumbnailTime, asset.duration);
      if (beyond) throw DomainError.invalid(beyond);
      const changes: AssetChanges = {};
      if (passthrough !== undefined) changes.passthrough = passthrough === '' ? null : passthrough;
      if (thumbnailTime !== undefined) changes.thumbnailTime = thumbnailTime;
      return this.change(manager, emit, asset.id, changes);
    });
  }

  /**
   * DELETE …/thumbnail-time: thumbnails without a time return to the default (video.asset.updated).
   * An asset without one is left as it is: no write, no event.
   */
  async deleteThumbnailTime(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const asset = await this.assets.lockById(manager, id);
      if (!asset) throw notFound();
      if (asset.thumbnailTime !== null) await this.change(manager, emit, id, { thumbnailTime: null });
    });
  }

  /** Writes a change of the API's fields with updated_at, emitting video.asset.updated with the asset as it now is. */
  private async change(manager: EntityManager, emit: Emit, id: string, changes: AssetChanges): Promise<assets.Asset> {
    const asset = await this.assets.update(manager, id, { ...changes, updatedAt: new Date() });
    if (!asset) throw notFound();
    const playbackIds = await this.playbackIds.findByAssetId(id, manager);
    emitAssetEvent(emit, ASSET_EVENTS.updated, asset, playbackIds);
    return toAssetMessage(asset, playbackIds);
  }

  /**
   * Deletes the asset and its playback ids (they stop resolving at once), then every stored
   * file. The files go after the commit: a failed commit must not leave an asset without
   * media. A failure to remove them is logged; the asset is gone either way.
   */
  async delete(id: string): Promise<void> {
    if (!(await this.remove(id, () => true))) throw notFound();
  }

  /**
   * The test-asset sweeper's delete: the same path, but only when the asset, read again under
   * its lock, is still a test asset created before `cutoff`. Returns whether it was deleted.
   */
  deleteExpiredTestAsset(id: string, cutoff: Date): Promise<boolean> {
    return this.remove(id, (asset) => asset.test && asset.createdAt < cutoff);
  }

  private async remove(id: string, eligible: (asset: AssetEntity) => boolean): Promise<boolean> {
    const removed = await this.unitOfWork.run(async (manager, emit) => {
      const asset = await this.assets.lockById(manager, id);
      if (!asset || !eligible(asset)) return undefined;
      await this.assets.delete(manager, id);
      const playbackIds = await this.playbackIds.deleteByAssetId(manager, id);
      emitAssetEvent(emit, ASSET_EVENTS.deleted, asset, playbackIds);
      return asset;
    });
    if (!removed) return false;
    try {
      await this.store.deletePrefix(assetKeys.prefix(id));
      if (removed.uploadId) await this.store.deletePrefix(uploadKeys.prefix(removed.uploadId));
    } catch (err) {
      this.logger.error(`asset ${id} deleted, but removing its files failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    return true;
  }

  /** What the probe found for each input; an empty list until the transcoder has probed it. */
  async getInputInfo(id: string): Promise<assets.InputInfoList> {
    const asset = await this.assets.findById(id);
    if (!asset) throw notFound();
    return { items: (asset.inputInfo ?? []).map((info) => structuredClone(info)) };
  }
}

const isUniqueViolation = (err: unknown): boolean =>
  (err as { code?: string; driverError?: { code?: string } }).code === '23505' || (err as { driverError?: { code?: string } }).driverError?.code === '23505';

export function notFound(): DomainError {
  return DomainError.notFound('Asset');
}
