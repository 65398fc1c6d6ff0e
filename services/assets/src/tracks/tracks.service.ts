import { Inject, Injectable, Logger } from '@nestjs/common';
import { Emit, UnitOfWork } from '@platform/events';
import { assets } from '@platform/proto';
import { assetKeys, OBJECT_STORE, ObjectStore, trackPaths } from '@platform/storage';
import { EntityManager } from 'typeorm';
import { CLOCK, Clock } from '../clock';
import { AssetEntity } from '../assets/asset.entity';
import { ASSET_EVENTS, emitAssetEvent, emitTrackEvent, TRACK_EVENTS } from '../assets/asset-events';
import { AssetRepository } from '../assets/asset.repository';
import { notFound } from '../assets/assets.service';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { publicTrack, StoredTrack } from './stored-track';
import { checkDeletable, newGeneratedTracks, newTrack } from './track-rules';

/**
 * Tracks users add to and remove from an asset (spec 4.2): text and alternate audio tracks from a URL,
 * generated subtitles of an audio track, and deleting text tracks. Each change runs on the asset row
 * locked for it, emits the track's event and video.asset.updated (the asset's `tracks` changed, as
 * Mux sends it), and moves `updated_at`. The transcoder's asset tasks make the tracks' files.
 */
@Injectable()
export class TracksService {
  private readonly logger = new Logger('TracksService');

  constructor(
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(PlaybackIdRepository) private readonly playbackIds: PlaybackIdRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** POST …/tracks: the new track, `preparing` (video.asset.track.created). */
  async create(request: assets.CreateTrackRequest): Promise<assets.Track> {
    return this.change(request.asset_id, (asset) => {
      const track = newTrack(request, asset);
      return { tracks: [...asset.tracks, track], created: [track] };
    }).then(([track]) => publicTrack(track));
  }

  /** POST …/tracks/{audio track id}/generate-subtitles: the new `generated_vod` tracks, `preparing`. */
  async generateSubtitles(request: assets.GenerateSubtitlesRequest): Promise<assets.TrackList> {
    const created = await this.change(request.asset_id, (asset) => {
      const tracks = newGeneratedTracks(request, asset, this.clock.now());
      return { tracks: [...asset.tracks, ...tracks], created: tracks };
    });
    return { items: created.map(publicTrack) };
  }

  /**
   * DELETE …/tracks/{id}: a text track leaves the asset (its event carries it with status `deleted`),
   * the master stops listing it at once (the playback host reads the asset's tracks), and its files go
   * after the commit. Video and audio tracks are refused.
   */
  async delete(request: assets.TrackRequest): Promise<void> {
    let deleted: StoredTrack | undefined;
    await this.unitOfWork.run(async (manager, emit) => {
      const asset = await this.lockAsset(manager, request.asset_id);
      deleted = checkDeletable(asset.tracks.find((t) => t.id === request.track_id));
      const updated = await this.save(manager, asset.id, { tracks: asset.tracks.filter((t) => t.id !== request.track_id), updatedAt: this.clock.now() });
      emitTrackEvent(emit, TRACK_EVENTS.deleted, updated, { ...deleted, status: 'deleted' });
      await this.assetUpdated(manager, emit, updated);
    });
    await this.removeFiles(request.asset_id, deleted!);
  }

  /** Runs a change that adds tracks on the locked asset: emits their created events and video.asset.updated. */
  private async change(assetId: string, make: (asset: AssetEntity) => { tracks: StoredTrack[]; created: StoredTrack[] }): Promise<StoredTrack[]> {
    return this.unitOfWork.run(async (manager, emit) => {
      const asset = await this.lockAsset(manager, assetId);
      const { tracks, created } = make(asset);
      const updated = await this.save(manager, asset.id, { tracks, updatedAt: this.clock.now() });
      for (const track of created) emitTrackEvent(emit, TRACK_EVENTS.created, updated, track);
      await this.assetUpdated(manager, emit, updated);
      return created;
    });
  }

  private async lockAsset(manager: EntityManager, id: string): Promise<AssetEntity> {
    const asset = await this.assets.lockById(manager, id);
    if (!asset) throw notFound();
    return asset;
  }

  private async save(manager: EntityManager, id: string, changes: Parameters<AssetRepository['update']>[2]): Promise<AssetEntity> {
    const updated = await this.assets.update(manager, id, changes);
    if (!updated) throw notFound();
    return updated;
  }

  private async assetUpdated(manager: EntityManager, emit: Emit, asset: AssetEntity): Promise<void> {
    emitAssetEvent(emit, ASSET_EVENTS.updated, asset, await this.playbackIds.findByAssetId(asset.id, manager));
  }

  /** A deleted text track's whole WebVTT and rendition; a failure is logged (the track is gone either way). */
  private async removeFiles(assetId: string, track: StoredTrack): Promise<void> {
    try {
      await this.store.deletePrefix(assetKeys.hls(assetId, trackPaths.textFile(track.id)));
      await this.store.deletePrefix(assetKeys.hls(assetId, `${trackPaths.rendition('text', track.id)}/`));
    } catch (err) {
      this.logger.error(`track ${track.id} of asset ${assetId} deleted, but removing its files failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
