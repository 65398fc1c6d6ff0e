import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../sql-rows';
import { TaskEntity, TaskStatus } from './task.entity';

interface TaskRow {
  id: string;
  asset_id: string;
  kind: string;
  target: string;
  status: TaskStatus;
  after_ladder: boolean;
  attempts: number;
  worker: string | null;
  lease_expires_at: Date | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A task asked for: the asset, the handler's kind, what within the asset. */
export interface TaskKey {
  assetId: string;
  kind: string;
  target: string;
}

const TASKS = '"transcoder"."tasks"';
const JOBS = '"transcoder"."jobs"';
const OPEN = `('queued', 'running')`;
const leaseFromNow = (param: string) => `now() + ${param}::int * interval '1 second'`;

/**
 * Asset tasks in Postgres. Every write of a running task is conditional on the claim that holds it
 * (`worker`), so a run whose lease was taken over can no longer change anything. Plain statements only
 * (no session state), as PGlite shares one session between every connection.
 */
@Injectable()
export class TaskRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Queues the task, or queues again one that has ended (asked for again); one still open is left as it
   * is (a redelivered request). True when queued now. In `manager`'s transaction when given.
   */
  async enqueue(id: string, key: TaskKey, afterLadder: boolean, manager?: EntityManager): Promise<boolean> {
    const rows = await this.rows(
      `INSERT INTO ${TASKS} AS t ("id", "asset_id", "kind", "target", "status", "after_ladder", "attempts", "created_at", "updated_at")
       VALUES ($1, $2, $3, $4, 'queued', $5, 0, now(), now())
       ON CONFLICT ("asset_id", "kind", "target") DO UPDATE
         SET "status" = 'queued', "after_ladder" = EXCLUDED."after_ladder", "attempts" = 0, "worker" = NULL,
             "lease_expires_at" = NULL, "error" = NULL, "updated_at" = now()
         WHERE t."status" NOT IN ${OPEN}
       RETURNING *`,
      [id, key.assetId, key.kind, key.target, afterLadder],
      manager,
    );
    return rows.length === 1;
  }

  /**
   * Cancels the open tasks of an asset: all of them, or those of one kind (and target). Returns the
   * cancelled tasks, so runs of them in this process can be stopped.
   */
  async cancel(match: { assetId: string; kind?: string; target?: string }, manager?: EntityManager): Promise<TaskEntity[]> {
    const rows = await this.rows(
      `UPDATE ${TASKS} SET "status" = 'cancelled', "lease_expires_at" = NULL, "updated_at" = now()
        WHERE "asset_id" = $1 AND ($2::text IS NULL OR "kind" = $2) AND ($3::text IS NULL OR "target" = $3) AND "status" IN ${OPEN}
        RETURNING *`,
      [match.assetId, match.kind ?? null, match.target ?? null],
      manager,
    );
    return rows.map(toEntity);
  }

  /**
   * Takes a task that is queued (and due) or whose holder's lease has expired, oldest first, atomically:
   * concurrent claimers skip each other's locked rows. A task `after_ladder` waits while its asset has an
   * open transcoding job.
   */
  async claim(holder: string, leaseSeconds: number): Promise<TaskEntity | undefined> {
    const [row] = await this.rows(
      `UPDATE ${TASKS}
          SET "status" = 'running', "worker" = $1, "lease_expires_at" = ${leaseFromNow('$2')},
              "attempts" = "attempts" + 1, "updated_at" = now()
        WHERE "id" = (
          SELECT t."id" FROM ${TASKS} t
           WHERE ((t."status" = 'queued' AND (t."lease_expires_at" IS NULL OR t."lease_expires_at" <= now()))
                  OR (t."status" = 'running' AND t."lease_expires_at" < now()))
             AND (NOT t."after_ladder" OR NOT EXISTS (
                  SELECT 1 FROM ${JOBS} j WHERE j."asset_id" = t."asset_id" AND j."status" IN ('queued', 'running', 'playable')))
           ORDER BY t."created_at", t."id"
           LIMIT 1
           FOR UPDATE OF t SKIP LOCKED)
        RETURNING *`,
      [holder, leaseSeconds],
    );
    return row && toEntity(row);
  }

  /** Extends the lease; false when this claim no longer holds the task (taken over, cancelled, queued again or ended). */
  async renew(id: string, holder: string, leaseSeconds: number): Promise<boolean> {
    return this.holds(
      `UPDATE ${TASKS} SET "lease_expires_at" = ${leaseFromNow('$3')}, "updated_at" = now()
        WHERE "id" = $1 AND "worker" = $2 AND "status" = 'running' RETURNING "id"`,
      [id, holder, leaseSeconds],
    );
  }

  /** Ends a task this claim holds; false (nothing written) when it no longer holds it. */
  async finish(id: string, holder: string, status: 'done' | 'errored' | 'cancelled', error: string | null): Promise<boolean> {
    return this.holds(
      `UPDATE ${TASKS} SET "status" = $3, "error" = $4, "lease_expires_at" = NULL, "updated_at" = now()
        WHERE "id" = $1 AND "worker" = $2 AND "status" = 'running' RETURNING "id"`,
      [id, holder, status, error],
    );
  }

  /** Gives a held task back to the queue, due in `delaySeconds`; `refund` takes back the attempt. */
  async requeue(id: string, holder: string, options: { error: string | null; delaySeconds: number; refund: boolean }): Promise<boolean> {
    return this.holds(
      `UPDATE ${TASKS}
          SET "status" = 'queued', "lease_expires_at" = ${leaseFromNow('$3')}, "error" = COALESCE($4, "error"),
              "attempts" = "attempts" - $5::int, "updated_at" = now()
        WHERE "id" = $1 AND "worker" = $2 AND "status" = 'running' RETURNING "id"`,
      [id, holder, options.delaySeconds, options.error, options.refund ? 1 : 0],
    );
  }

  async findById(id: string): Promise<TaskEntity | undefined> {
    const [row] = await this.rows(`SELECT * FROM ${TASKS} WHERE "id" = $1`, [id]);
    return row && toEntity(row);
  }

  /** The tasks of an asset, oldest first. */
  async listForAsset(assetId: string): Promise<TaskEntity[]> {
    return (await this.rows(`SELECT * FROM ${TASKS} WHERE "asset_id" = $1 ORDER BY "created_at", "id"`, [assetId])).map(toEntity);
  }

  /** The ids among `ids` of tasks still open. */
  async openIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.rows(`SELECT * FROM ${TASKS} WHERE "id" = ANY($1::text[]) AND "status" IN ${OPEN}`, [ids]);
    return new Set(rows.map((r) => r.id));
  }

  private rows(sql: string, params: unknown[], manager?: EntityManager): Promise<TaskRow[]> {
    return queryRows<TaskRow>(manager ?? this.dataSource, sql, params);
  }

  private async holds(sql: string, params: unknown[]): Promise<boolean> {
    return (await this.rows(sql, params)).length === 1;
  }
}

function toEntity(row: TaskRow): TaskEntity {
  return {
    id: row.id,
    assetId: row.asset_id,
    kind: row.kind,
    target: row.target,
    status: row.status,
    afterLadder: row.after_ladder,
    attempts: row.attempts,
    worker: row.worker,
    leaseExpiresAt: row.lease_expires_at,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
