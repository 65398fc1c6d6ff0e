import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../sql-rows';
import { JobEntity, JobPhase, JobStatus } from './job.entity';

interface JobRow {
  id: string;
  asset_id: string;
  status: JobStatus;
  phase: JobPhase;
  attempts: number;
  playable: boolean;
  input_key: string | null;
  worker: string | null;
  lease_expires_at: Date | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

const JOBS = '"transcoder"."jobs"';
const OPEN = `('queued', 'running', 'playable')`;
const leaseFromNow = (param: string) => `now() + ${param}::int * interval '1 second'`;

/**
 * Jobs in Postgres. Every write of a running job is conditional on `worker`, so a worker whose lease
 * was taken over can no longer change anything. Plain statements only (no session state), as PGlite
 * shares one session between every connection.
 */
@Injectable()
export class JobRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Inserts a queued job unless the asset already has one; true when inserted. In `manager`'s transaction when given. */
  async enqueue(id: string, assetId: string, manager?: EntityManager): Promise<boolean> {
    const rows = await this.rows(
      `INSERT INTO ${JOBS} ("id", "asset_id", "status", "attempts", "created_at", "updated_at")
       VALUES ($1, $2, 'queued', 0, now(), now())
       ON CONFLICT ("asset_id") DO NOTHING RETURNING *`,
      [id, assetId],
      manager,
    );
    return rows.length === 1;
  }

  /**
   * Cancels the asset's open job, or records a cancelled one when the deletion arrives before the
   * creation (they travel on different topics). Returns the cancelled job; undefined when the job had
   * already ended. In `manager`'s transaction when given.
   */
  async cancelAsset(id: string, assetId: string, manager?: EntityManager): Promise<JobEntity | undefined> {
    const [row] = await this.rows(
      `INSERT INTO ${JOBS} AS j ("id", "asset_id", "status", "attempts", "created_at", "updated_at")
       VALUES ($1, $2, 'cancelled', 0, now(), now())
       ON CONFLICT ("asset_id") DO UPDATE SET "status" = 'cancelled', "lease_expires_at" = NULL, "updated_at" = now()
         WHERE j."status" IN ${OPEN}
       RETURNING *`,
      [id, assetId],
      manager,
    );
    return row && toEntity(row);
  }

  /**
   * Takes a job of `phase` that is queued (and due) or whose holder's lease has expired, atomically:
   * concurrent claimers skip each other's locked rows, so no two workers get the same job. Jobs of
   * assets that do not play yet come first, then the oldest.
   */
  async claim(worker: string, leaseSeconds: number, phase: JobPhase): Promise<JobEntity | undefined> {
    const [row] = await this.rows(
      `UPDATE ${JOBS}
          SET "status" = CASE WHEN "playable" THEN 'playable' ELSE 'running' END, "worker" = $1,
              "lease_expires_at" = ${leaseFromNow('$2')}, "attempts" = "attempts" + 1, "updated_at" = now()
        WHERE "id" = (
          SELECT "id" FROM ${JOBS}
           WHERE "phase" = $3
             AND (("status" = 'queued' AND ("lease_expires_at" IS NULL OR "lease_expires_at" <= now()))
                  OR ("status" IN ('running', 'playable') AND "lease_expires_at" < now()))
           ORDER BY "playable", "created_at", "id"
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [worker, leaseSeconds, phase],
    );
    return row && toEntity(row);
  }

  /** Extends the lease; false when this worker no longer holds the job (taken over, cancelled or ended). */
  async renew(id: string, worker: string, leaseSeconds: number): Promise<boolean> {
    return this.holds(
      `UPDATE ${JOBS} SET "lease_expires_at" = ${leaseFromNow('$3')}, "updated_at" = now()
        WHERE "id" = $1 AND "worker" = $2 AND "status" IN ('running', 'playable') RETURNING "id"`,
      [id, worker, leaseSeconds],
    );
  }

  async markPlayable(id: string, worker: string): Promise<boolean> {
    return this.holds(
      `UPDATE ${JOBS} SET "status" = 'playable', "playable" = true, "updated_at" = now()
        WHERE "id" = $1 AND "worker" = $2 AND "status" IN ('running', 'playable') RETURNING "id"`,
      [id, worker],
    );
  }

  /** Ends a job this worker holds; false (nothing written) when it no longer holds it. */
  async finish(id: string, worker: string, status: 'done' | 'errored' | 'cancelled', error: string | null): Promise<boolean> {
    return this.holds(
      `UPDATE ${JOBS} SET "status" = $3, "error" = $4, "lease_expires_at" = NULL, "updated_at" = now()
        WHERE "id" = $1 AND "worker" = $2 AND "status" IN ('running', 'playable') RETURNING "id"`,
      [id, worker, status, error],
    );
  }

  /**
   * Ends the ingest phase of a held job: it is queued, due now, for an encode slot (any worker's), its
   * attempts counted afresh, with the key of the input kept for it (null: the ladder reads the asset's input).
   */
  async advanceToLadder(id: string, worker: string, inputKey: string | null): Promise<boolean> {
    return this.holds(
      `UPDATE ${JOBS}
          SET "phase" = 'ladder', "status" = 'queued', "attempts" = 0, "input_key" = $3, "lease_expires_at" = NULL,
              "error" = NULL, "updated_at" = now()
        WHERE "id" = $1 AND "worker" = $2 AND "status" IN ('running', 'playable') RETURNING "id"`,
      [id, worker, inputKey],
    );
  }

  /**
   * Gives a held job back to the queue, due in `delaySeconds`. `refund` takes back the attempt (a
   * shutdown is not the job's fault).
   */
  async requeue(id: string, worker: string, options: { error: string | null; delaySeconds: number; refund: boolean }): Promise<boolean> {
    return this.holds(
      `UPDATE ${JOBS}
          SET "status" = 'queued', "lease_expires_at" = ${leaseFromNow('$3')}, "error" = COALESCE($4, "error"),
              "attempts" = "attempts" - $5::int, "updated_at" = now()
        WHERE "id" = $1 AND "worker" = $2 AND "status" IN ('running', 'playable') RETURNING "id"`,
      [id, worker, options.delaySeconds, options.error, options.refund ? 1 : 0],
    );
  }

  async findById(id: string): Promise<JobEntity | undefined> {
    const [row] = await this.rows(`SELECT * FROM ${JOBS} WHERE "id" = $1`, [id]);
    return row && toEntity(row);
  }

  async findByAssetId(assetId: string): Promise<JobEntity | undefined> {
    const [row] = await this.rows(`SELECT * FROM ${JOBS} WHERE "asset_id" = $1`, [assetId]);
    return row && toEntity(row);
  }

  /** Newest first. */
  async list(limit: number, offset: number): Promise<JobEntity[]> {
    const rows = await this.rows(`SELECT * FROM ${JOBS} ORDER BY "created_at" DESC, "id" DESC LIMIT $1 OFFSET $2`, [limit, offset]);
    return rows.map(toEntity);
  }

  /** The ids among `ids` whose job is still open (queued, running or playable). */
  async openIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.dataSource.query<
      Array<{
        id: string;
      }>
    >(`SELECT "id" FROM ${JOBS} WHERE "id" = ANY($1::text[]) AND "status" IN ${OPEN}`, [ids]);
    return new Set(rows.map((r) => r.id));
  }

  /** Open jobs counted by phase and status (the queue's depth). */
  async openCounts(): Promise<Array<{ phase: string; status: string; count: number }>> {
    const rows = await this.dataSource.query<Array<{ phase: string; status: string; count: string }>>(
      `SELECT "phase", "status", count(*) AS "count" FROM ${JOBS} WHERE "status" IN ${OPEN} GROUP BY "phase", "status" ORDER BY 1, 2`,
    );
    return rows.map((r) => ({ phase: r.phase, status: r.status, count: Number(r.count) }));
  }

  private rows(sql: string, params: unknown[], manager?: EntityManager): Promise<JobRow[]> {
    return queryRows<JobRow>(manager ?? this.dataSource, sql, params);
  }

  private async holds(sql: string, params: unknown[]): Promise<boolean> {
    return (await this.rows(sql, params)).length === 1;
  }
}

function toEntity(row: JobRow): JobEntity {
  return {
    id: row.id,
    assetId: row.asset_id,
    status: row.status,
    phase: row.phase,
    attempts: row.attempts,
    playable: row.playable,
    inputKey: row.input_key,
    worker: row.worker,
    leaseExpiresAt: row.lease_expires_at,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
