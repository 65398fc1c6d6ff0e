import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { LivePlaybackIdEntity, LiveStreamEntity, LiveStreamStatus, SimulcastTargetEntity } from './live-stream.entity';

export interface LiveStreamListFilter {
  limit: number;
  offset: number;
  streamKey?: string;
  status?: LiveStreamStatus;
}

export type LiveStreamChanges = Partial<Omit<LiveStreamEntity, 'id' | 'createdAt'>>;

/** A live stream with what hangs off it, as one read. */
export interface LiveStreamRecord {
  stream: LiveStreamEntity;
  playbackIds: LivePlaybackIdEntity[];
  targets: SimulcastTargetEntity[];
}

/** Live streams, their playback ids and simulcast targets in Postgres (schema `live`). */
@Injectable()
export class LiveStreamRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, record: LiveStreamRecord): Promise<void> {
    await manager.insert(LiveStreamEntity, record.stream);
    if (record.playbackIds.length > 0) await manager.insert(LivePlaybackIdEntity, record.playbackIds);
    if (record.targets.length > 0) await manager.insert(SimulcastTargetEntity, record.targets);
  }

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<LiveStreamEntity | null> {
    return manager.findOne(LiveStreamEntity, { where: { id } });
  }

  /** The stream, locked until the transaction ends, so its changes run one at a time. */
  async lockById(manager: EntityManager, id: string): Promise<LiveStreamEntity | null> {
    return manager.findOne(LiveStreamEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async record(stream: LiveStreamEntity, manager: EntityManager = this.dataSource.manager): Promise<LiveStreamRecord> {
    const [playbackIds, targets] = await Promise.all([
      manager.find(LivePlaybackIdEntity, { where: { liveStreamId: stream.id }, order: { createdAt: 'ASC', id: 'ASC' } }),
      manager.find(SimulcastTargetEntity, { where: { liveStreamId: stream.id }, order: { createdAt: 'ASC', id: 'ASC' } }),
    ]);
    return { stream, playbackIds, targets };
  }

  /** Newest first, ties by id; optional filters by key and status. */
  async list(filter: LiveStreamListFilter): Promise<LiveStreamEntity[]> {
    return this.dataSource.manager.find(LiveStreamEntity, {
      where: { ...(filter.streamKey !== undefined ? { streamKey: filter.streamKey } : {}), ...(filter.status !== undefined ? { status: filter.status } : {}) },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: filter.limit,
      skip: filter.offset,
    });
  }

  async update(manager: EntityManager, id: string, changes: LiveStreamChanges): Promise<LiveStreamEntity> {
    await manager.update(LiveStreamEntity, { id }, changes);
    return (await manager.findOne(LiveStreamEntity, { where: { id } }))!;
  }

  /** Deletes the stream; its playback ids and targets go with it (ON DELETE CASCADE). */
  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.delete(LiveStreamEntity, { id });
  }

  /** Streams with an encoder session or recording that no live process holds (see isOrphaned). */
  async findOrphanIds(owner: string, now: Date): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ id: string }>>(
      `SELECT "id" FROM "live"."live_streams"
        WHERE ("status" = 'active' OR "active_asset_id" IS NOT NULL)
          AND ("ingest_owner" IS NULL OR "ingest_owner" <> $1)
          AND ("ingest_owner" IS NULL OR "ingest_lease_until" IS NULL OR "ingest_lease_until" <= $2)
        ORDER BY "id"`,
      [owner, now],
    );
    return rows.map((r) => r.id);
  }

  /** Moves `owner`'s lease on these streams to `until`; returns the ids it still holds. */
  async renewLeases(owner: string, ids: readonly string[], until: Date): Promise<string[]> {
    const [rows] = await this.dataSource.query<[Array<{ id: string }>, number]>(
      `UPDATE "live"."live_streams" SET "ingest_lease_until" = $3 WHERE "ingest_owner" = $1 AND "id" = ANY($2) RETURNING "id"`,
      [owner, ids, until],
    );
    return rows.map((r) => r.id);
  }

  /** Streams whose generated subtitles name this transcription vocabulary. */
  async findIdsNamingVocabulary(vocabularyId: string): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ id: string }>>(
      `SELECT "id" FROM "live"."live_streams" s
        WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(s."generated_subtitles") g WHERE g->'transcription_vocabulary_ids' ? $1)`,
      [vocabularyId],
    );
    return rows.map((r) => r.id);
  }

  async insertPlaybackId(manager: EntityManager, playbackId: LivePlaybackIdEntity): Promise<void> {
    await manager.insert(LivePlaybackIdEntity, playbackId);
  }

  async findPlaybackId(id: string): Promise<LivePlaybackIdEntity | null> {
    return this.dataSource.manager.findOne(LivePlaybackIdEntity, { where: { id } });
  }

  /** True when the stream had this playback id. */
  async deletePlaybackId(manager: EntityManager, liveStreamId: string, id: string): Promise<boolean> {
    return ((await manager.delete(LivePlaybackIdEntity, { id, liveStreamId })).affected ?? 0) > 0;
  }

  async insertTarget(manager: EntityManager, target: SimulcastTargetEntity): Promise<void> {
    await manager.insert(SimulcastTargetEntity, target);
  }

  async findTarget(liveStreamId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<SimulcastTargetEntity | null> {
    return manager.findOne(SimulcastTargetEntity, { where: { id, liveStreamId } });
  }

  async targetsOf(liveStreamId: string): Promise<SimulcastTargetEntity[]> {
    return this.dataSource.manager.find(SimulcastTargetEntity, { where: { liveStreamId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async updateTarget(manager: EntityManager, id: string, changes: Pick<SimulcastTargetEntity, 'status' | 'errorSeverity'>): Promise<SimulcastTargetEntity> {
    await manager.update(SimulcastTargetEntity, { id }, changes);
    return (await manager.findOne(SimulcastTargetEntity, { where: { id } }))!;
  }

  async deleteTarget(manager: EntityManager, liveStreamId: string, id: string): Promise<boolean> {
    return ((await manager.delete(SimulcastTargetEntity, { id, liveStreamId })).affected ?? 0) > 0;
  }
}
