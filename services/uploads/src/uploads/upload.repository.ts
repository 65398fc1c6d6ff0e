import { Inject, Injectable } from '@nestjs/common';
import { assets } from '@platform/proto';
import { ResumableWrite } from '@platform/storage';
import { DataSource, EntityManager } from 'typeorm';
import { UploadEntity, UploadError, UploadStatus } from './upload.entity';

interface UploadRow {
  id: string;
  status: UploadStatus;
  timeout: number;
  cors_origin: string | null;
  new_asset_settings: assets.CreateAssetRequest | null;
  test: boolean;
  asset_id: string | null;
  error: UploadError | null;
  signature: string;
  expires_at: Date;
  write: ResumableWrite | null;
  total_bytes: string | number | null;
  claim_token: string | null;
  claim_until: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date | null;
}

function fromRow(row: UploadRow): UploadEntity {
  return {
    id: row.id,
    status: row.status,
    timeout: row.timeout,
    corsOrigin: row.cors_origin,
    newAssetSettings: row.new_asset_settings,
    test: row.test,
    assetId: row.asset_id,
    error: row.error,
    signature: row.signature,
    expiresAt: new Date(row.expires_at),
    write: row.write,
    // bigint comes back as a string from pg
    totalBytes: row.total_bytes === null ? null : Number(row.total_bytes),
    claimToken: row.claim_token,
    claimUntil: row.claim_until === null ? null : new Date(row.claim_until),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at),
    createdAt: new Date(row.created_at),
    updatedAt: row.updated_at === null ? null : new Date(row.updated_at),
  };
}

const first = (rows: UploadRow[]): UploadEntity | null => (rows[0] ? fromRow(rows[0]) : null);

export type UploadChanges = Partial<Omit<UploadEntity, 'id' | 'createdAt'>>;

const TABLE = '"uploads"."uploads"';

/** Direct uploads in Postgres. */
@Injectable()
export class UploadRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, upload: UploadEntity): Promise<void> {
    await manager.insert(UploadEntity, upload);
  }

  async findById(id: string): Promise<UploadEntity | null> {
    return first(await this.dataSource.query(`SELECT * FROM ${TABLE} WHERE "id" = $1`, [id]));
  }

  /** The upload, locked until the transaction ends, so its state changes run one at a time. */
  async lockById(manager: EntityManager, id: string): Promise<UploadEntity | null> {
    return first(await manager.query(`SELECT * FROM ${TABLE} WHERE "id" = $1 FOR UPDATE`, [id]));
  }

  /** Newest first, ties broken by id so pages never overlap. */
  async list(limit: number, offset: number): Promise<UploadEntity[]> {
    const rows = await this.dataSource.query<UploadRow[]>(`SELECT * FROM ${TABLE} ORDER BY "created_at" DESC, "id" DESC LIMIT $1 OFFSET $2`, [limit, offset]);
    return rows.map(fromRow);
  }

  async update(manager: EntityManager, id: string, changes: UploadChanges): Promise<UploadEntity | null> {
    const result = await manager.createQueryBuilder().update(UploadEntity).set(changes).where('id = :id', { id }).returning('*').execute();
    return first(result.raw as UploadRow[]);
  }

  /**
   * Takes the right to write bytes of a waiting upload until `until`, unless another request holds
   * it; null when the upload is not waiting, already complete, or claimed.
   */
  async claim(id: string, token: string, now: Date, until: Date): Promise<UploadEntity | null> {
    const rows = await this.dataSource.query<[UploadRow[], number]>(
      `UPDATE ${TABLE} SET "claim_token" = $2, "claim_until" = $4
        WHERE "id" = $1 AND "status" = 'waiting' AND "completed_at" IS NULL AND ("claim_until" IS NULL OR "claim_until" < $3)
        RETURNING *`,
      [id, token, now, until],
    );
    return first(rows[0]);
  }

  /** Extends a claim still held; false when it was lost. */
  async renewClaim(id: string, token: string, until: Date): Promise<boolean> {
    const [, count] = await this.dataSource.query<[unknown, number]>(`UPDATE ${TABLE} SET "claim_until" = $3 WHERE "id" = $1 AND "claim_token" = $2`, [
      id,
      token,
      until,
    ]);
    return count > 0;
  }

  /** Drops every claim whose token starts with `holder` (the claims of a process that died). */
  async releaseClaimsOf(holder: string): Promise<number> {
    const [, count] = await this.dataSource.query<[unknown, number]>(
      `UPDATE ${TABLE} SET "claim_token" = NULL, "claim_until" = NULL WHERE left("claim_token", length($1)) = $1`,
      [holder],
    );
    return count;
  }

  async releaseClaim(id: string, token: string): Promise<void> {
    await this.dataSource.query(`UPDATE ${TABLE} SET "claim_token" = NULL, "claim_until" = NULL WHERE "id" = $1 AND "claim_token" = $2`, [id, token]);
  }

  /** Waiting uploads whose URL expired before any completion. */
  async findExpiredIds(now: Date, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ id: string }>>(
      `SELECT "id" FROM ${TABLE} WHERE "status" = 'waiting' AND "completed_at" IS NULL AND "expires_at" < $1 ORDER BY "expires_at" LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Uploads whose bytes are all in but whose asset was not created (a crash, the assets service down). */
  async findUnfinishedCompletionIds(completedBefore: Date, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ id: string }>>(
      `SELECT "id" FROM ${TABLE} WHERE "status" = 'waiting' AND "completed_at" < $1 ORDER BY "completed_at" LIMIT $2`,
      [completedBefore, limit],
    );
    return rows.map((r) => r.id);
  }
}
