import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@platform/events';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { AssetEntity } from '../assets/asset.entity';
import { AssetChanges, AssetRepository } from '../assets/asset.repository';
import { notFound } from '../assets/assets.service';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';
import { DownloadEvent, emitDownloadEvents } from './download-events';

/**
 * What a change of an asset's downloads decides, from the asset as it is (read under its lock): the
 * fields to write, the events that say so, the stored files that go once it is committed, and what
 * the call answers.
 */
export interface Decision<T> {
  changes?: AssetChanges;
  events?: DownloadEvent[];
  /** Object keys to delete after the commit (a failed commit must not lose files the asset still lists). */
  deleteKeys?: string[];
  result: T;
}

/**
 * Applies decisions about static renditions and masters: one transaction on the asset row locked
 * `FOR UPDATE` (so requests and the transcoder's reports on one asset take turns), the changes and
 * their events committed together, then the files that are no longer wanted removed.
 */
@Injectable()
export class DownloadChanges {
  private readonly logger = new Logger('AssetDownloads');

  constructor(
    @Inject(AssetRepository) private readonly assets: AssetRepository,
    @Inject(PlaybackIdRepository) private readonly playbackIds: PlaybackIdRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  /** NOT_FOUND when the asset does not exist; otherwise the asset after the change, and the decision's result. */
  async apply<T>(assetId: string, decide: (asset: AssetEntity) => Decision<T>): Promise<{ asset: AssetEntity; result: T }> {
    const { asset, decision } = await this.unitOfWork.run(async (manager, emit) => {
      const locked = await this.assets.lockById(manager, assetId);
      if (!locked) throw notFound();
      const made = decide(locked);
      const changed = made.changes && Object.keys(made.changes).length > 0 ? await this.assets.update(manager, assetId, made.changes) : locked;
      if (!changed) throw notFound();
      if (made.events && made.events.length > 0) emitDownloadEvents(emit, changed, await this.playbackIds.findByAssetId(assetId, manager), made.events);
      return { asset: changed, decision: made };
    });
    await this.removeFiles(assetId, decision.deleteKeys ?? []);
    return { asset, result: decision.result };
  }

  private async removeFiles(assetId: string, keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.store.deletePrefix(key);
      } catch (err) {
        this.logger.error(`asset ${assetId}: removing ${key} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
