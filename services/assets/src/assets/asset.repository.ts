import { Inject, Injectable } from '@nestjs/common';
import { assets } from '@platform/proto';
import { DataSource, EntityManager } from 'typeorm';
import type { StoredTrack } from '../tracks/stored-track';
import { MasterStatus, Mp4SupportStatus, StoredStaticRendition } from '../static-renditions/stored-static-rendition';
import { AssetEntity, AssetStatus, StoredInput } from './asset.entity';

interface AssetRow {
  id: string;
  status: AssetStatus;
  inputs: StoredInput[];
  passthrough: string | null;
  max_resolution_tier: string;
  encoding_tier: string;
  video_quality: string;
  mp4_support: string;
  master_access: string;
  normalize_audio: boolean;
  test: boolean;
  ingest_type: string;
  upload_id: string | null;
  live_stream_id: string | null;
  source_asset_id: string | null;
  clip_start_time: number | null;
  clip_end_time: number | null;
  duration: number | null;
  max_stored_resolution: string | null;
  resolution_tier: string | null;
  max_stored_frame_rate: number | null;
  aspect_ratio: string | null;
  tracks: StoredTrack[];
  non_standard_input_reasons: Record<string, string> | null;
  input_info: assets.InputInfo[] | null;
  errors: assets.AssetErrors | null;
  recording_times: assets.RecordingTime[] | null;
  static_renditions: StoredStaticRendition[];
  static_renditions_status: Mp4SupportStatus | null;
  master_status: MasterStatus | null;
  master_token: string | null;
  master_url: string | null;
  master_expires_at: Date | null;
  thumbnail_time: number | null;
  created_at: Date;
  updated_at: Date | null;
}

function fromRow(row: AssetRow): AssetEntity {
  return {
    id: row.id,
    status: row.status,
    inputs: row.inputs,
    passthrough: row.passthrough,
    maxResolutionTier: row.max_resolution_tier,
    encodingTier: row.encoding_tier,
    videoQuality: row.video_quality,
    mp4Support: row.mp4_support,
    masterAccess: row.master_access,
    normalizeAudio: row.normalize_audio,
    test: row.test,
    ingestType: row.ingest_type,
    uploadId: row.upload_id,
    liveStreamId: row.live_stream_id,
    sourceAssetId: row.source_asset_id,
    clipStartTime: row.clip_start_time,
    clipEndTime: row.clip_end_time,
    duration: row.duration,
    maxStoredResolution: row.max_stored_resolution,
    resolutionTier: row.resolution_tier,
    maxStoredFrameRate: row.max_stored_frame_rate,
    aspectRatio: row.aspect_ratio,
    tracks: row.tracks,
    nonStandardInputReasons: row.non_standard_input_reasons,
    inputInfo: row.input_info,
    errors: row.errors,
    recordingTimes: row.recording_times,
    staticRenditions: row.static_renditions,
    staticRenditionsStatus: row.static_renditions_status,
    masterStatus: row.master_status,
    masterToken: row.master_token,
    masterUrl: row.master_url,
    masterExpiresAt: row.master_expires_at,
    thumbnailTime: row.thumbnail_time,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const first = (rows: AssetRow[]): AssetEntity | null => (rows[0] ? fromRow(rows[0]) : null);

export interface AssetListFilter {
  limit: number;
  offset: number;
  liveStreamId?: string;
  uploadId?: string;
}

/** The fields a state change may write (never the id or created_at). */
export type AssetChanges = Partial<Omit<AssetEntity, 'id' | 'createdAt'>>;

/** Assets in Postgres; a deleted asset's row is gone. */
@Injectable()
export class AssetRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, asset: AssetEntity): Promise<void> {
    await manager.insert(AssetEntity, asset);
  }

  async findById(id: string): Promise<AssetEntity | null> {
    return first(await this.dataSource.query('SELECT * FROM "assets"."assets" WHERE "id" = $1', [id]));
  }

  /** The asset made from this direct upload (at most one: a unique index). */
  async findByUploadId(uploadId: string): Promise<AssetEntity | null> {
    return first(await this.dataSource.query('SELECT * FROM "assets"."assets" WHERE "upload_id" = $1', [uploadId]));
  }

  /** The asset, locked until the transaction ends, so state transitions on it run one at a time. */
  async lockById(manager: EntityManager, id: string): Promise<AssetEntity | null> {
    return first(await manager.query('SELECT * FROM "assets"."assets" WHERE "id" = $1 FOR UPDATE', [id]));
  }

  /** Newest first (ties broken by id, so pages never overlap); optional owner filters. */
  async list(filter: AssetListFilter): Promise<AssetEntity[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.liveStreamId !== undefined) {
      params.push(filter.liveStreamId);
      where.push(`"live_stream_id" = $${params.length}`);
    }
    if (filter.uploadId !== undefined) {
      params.push(filter.uploadId);
      where.push(`"upload_id" = $${params.length}`);
    }
    params.push(filter.limit, filter.offset);
    const rows = await this.dataSource.query<AssetRow[]>(
      `SELECT * FROM "assets"."assets" ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY "created_at" DESC, "id" DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(fromRow);
  }

  /** Writes the changes; returns the asset as it now is, or null when it does not exist. */
  async update(manager: EntityManager, id: string, changes: AssetChanges): Promise<AssetEntity | null> {
    const result = await manager.createQueryBuilder().update(AssetEntity).set(changes).where('id = :id', { id }).returning('*').execute();
    return first(result.raw as AssetRow[]);
  }

  /** Deletes the asset row; returns it as it was, or null when it does not exist. */
  async delete(manager: EntityManager, id: string): Promise<AssetEntity | null> {
    // pg answers a DELETE … RETURNING as [rows, count]
    const [rows] = await manager.query<[AssetRow[], number]>('DELETE FROM "assets"."assets" WHERE "id" = $1 RETURNING *', [id]);
    return first(rows);
  }

  /** The asset whose master URL carries this token (any state: the caller checks it). */
  async findByMasterToken(token: string): Promise<AssetEntity | null> {
    return first(await this.dataSource.query('SELECT * FROM "assets"."assets" WHERE "master_token" = $1', [token]));
  }

  /** Ids of assets whose master URL expired by `now`, soonest first. */
  async findExpiredMasterIds(now: Date, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ id: string }>>(
      'SELECT "id" FROM "assets"."assets" WHERE "master_expires_at" <= $1 ORDER BY "master_expires_at", "id" LIMIT $2',
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** When the next master URL expires (undefined: none is ready). */
  async nextMasterExpiry(): Promise<Date | undefined> {
    const [row] = await this.dataSource.query<Array<{ at: Date | null }>>('SELECT min("master_expires_at") AS "at" FROM "assets"."assets"');
    return row?.at ?? undefined;
  }

  /** Ids of test assets created before `cutoff`, oldest first. */
  async findTestAssetIdsCreatedBefore(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ id: string }>>(
      'SELECT "id" FROM "assets"."assets" WHERE "test" AND "created_at" < $1 ORDER BY "created_at", "id" LIMIT $2',
      [cutoff, limit],
    );
    return rows.map((r) => r.id);
  }
}
