import { EntityManager } from 'typeorm';
import { AssetEntity } from '../assets/asset.entity';
import { AssetChanges, AssetListFilter, AssetRepository } from '../assets/asset.repository';
import { AssetWarningRepository } from '../processing/asset-warning.repository';
import { assets } from '@platform/proto';
import { PlaybackIdEntity } from '../playback-ids/playback-id.entity';
import { PlaybackIdRepository } from '../playback-ids/playback-id.repository';

type Contract<T> = Pick<T, keyof T>;

const newestFirst = (a: AssetEntity, b: AssetEntity) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);

/** AssetRepository's contract, kept in memory; records the managers writes were made with. */
export class InMemoryAssetRepository implements Contract<AssetRepository> {
  readonly rows = new Map<string, AssetEntity>();
  readonly managers: EntityManager[] = [];

  async insert(manager: EntityManager, asset: AssetEntity): Promise<void> {
    this.managers.push(manager);
    this.rows.set(asset.id, structuredClone(asset));
  }

  async findById(id: string): Promise<AssetEntity | null> {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  async findByUploadId(uploadId: string): Promise<AssetEntity | null> {
    const row = [...this.rows.values()].find((a) => a.uploadId === uploadId);
    return row ? structuredClone(row) : null;
  }

  async lockById(manager: EntityManager, id: string): Promise<AssetEntity | null> {
    this.managers.push(manager);
    return this.findById(id);
  }

  async list(filter: AssetListFilter): Promise<AssetEntity[]> {
    return [...this.rows.values()]
      .filter((a) => filter.liveStreamId === undefined || a.liveStreamId === filter.liveStreamId)
      .filter((a) => filter.uploadId === undefined || a.uploadId === filter.uploadId)
      .sort(newestFirst)
      .slice(filter.offset, filter.offset + filter.limit)
      .map((a) => structuredClone(a));
  }

  async update(manager: EntityManager, id: string, changes: AssetChanges): Promise<AssetEntity | null> {
    this.managers.push(manager);
    const row = this.rows.get(id);
    if (!row) return null;
    Object.assign(row, structuredClone(changes));
    return structuredClone(row);
  }

  async delete(manager: EntityManager, id: string): Promise<AssetEntity | null> {
    this.managers.push(manager);
    const row = this.rows.get(id);
    this.rows.delete(id);
    return row ?? null;
  }

  async findByMasterToken(token: string): Promise<AssetEntity | null> {
    const row = [...this.rows.values()].find((a) => a.masterToken === token);
    return row ? structuredClone(row) : null;
  }

  async findExpiredMasterIds(now: Date, limit: number): Promise<string[]> {
    return [...this.rows.values()]
      .filter((a) => a.masterExpiresAt !== null && a.masterExpiresAt <= now)
      .sort((a, b) => a.masterExpiresAt!.getTime() - b.masterExpiresAt!.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((a) => a.id);
  }

  async nextMasterExpiry(): Promise<Date | undefined> {
    const times = [...this.rows.values()].flatMap((a) => (a.masterExpiresAt ? [a.masterExpiresAt.getTime()] : []));
    return times.length > 0 ? new Date(Math.min(...times)) : undefined;
  }

  async findTestAssetIdsCreatedBefore(cutoff: Date, limit: number): Promise<string[]> {
    return [...this.rows.values()]
      .filter((a) => a.test && a.createdAt < cutoff)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((a) => a.id);
  }
}

/** PlaybackIdRepository's contract, kept in memory in insertion order. */
export class InMemoryPlaybackIdRepository implements Contract<PlaybackIdRepository> {
  rows: PlaybackIdEntity[] = [];

  async insert(_manager: EntityManager, playbackIds: PlaybackIdEntity[]): Promise<void> {
    this.rows.push(...playbackIds.map((p) => structuredClone(p)));
  }

  async findById(id: string): Promise<PlaybackIdEntity | null> {
    const row = this.rows.find((p) => p.id === id);
    return row ? structuredClone(row) : null;
  }

  async findByAssetIds(assetIds: string[]): Promise<Map<string, PlaybackIdEntity[]>> {
    return new Map(assetIds.map((id) => [id, this.rows.filter((p) => p.assetId === id).map((p) => structuredClone(p))]));
  }

  async findByAssetId(assetId: string): Promise<PlaybackIdEntity[]> {
    return (await this.findByAssetIds([assetId])).get(assetId)!;
  }

  async delete(_manager: EntityManager, assetId: string, id: string): Promise<PlaybackIdEntity | null> {
    const row = this.rows.find((p) => p.id === id && p.assetId === assetId);
    this.rows = this.rows.filter((p) => p !== row);
    return row ?? null;
  }

  async deleteByAssetId(_manager: EntityManager, assetId: string): Promise<PlaybackIdEntity[]> {
    const gone = this.rows.filter((p) => p.assetId === assetId);
    this.rows = this.rows.filter((p) => p.assetId !== assetId);
    return gone;
  }
}

/** AssetWarningRepository's contract in memory. */
export class InMemoryAssetWarningRepository implements Contract<AssetWarningRepository> {
  readonly rows: Array<{ assetId: string } & assets.AssetWarning> = [];

  recordOnce(_manager: EntityManager, assetId: string, warning: assets.AssetWarning): Promise<boolean> {
    if (this.rows.some((r) => r.assetId === assetId && r.type === warning.type)) return Promise.resolve(false);
    this.rows.push({ assetId, ...warning });
    return Promise.resolve(true);
  }
}
