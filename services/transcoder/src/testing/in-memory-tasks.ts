import { OPEN_TASK_STATUSES, TaskEntity } from '../tasks/task.entity';
import { TaskKey, TaskRepository } from '../tasks/task.repository';

/** TaskRepository's contract in memory (no jobs: `after_ladder` tasks wait on `openJobAssets`), on a clock the test moves (`now`). */
export class InMemoryTasks implements Pick<TaskRepository, keyof TaskRepository> {
  readonly rows = new Map<string, TaskEntity>();
  /** Assets whose transcoding job is still open. */
  readonly openJobAssets = new Set<string>();
  now = Date.now();
  private tick = 0;

  async enqueue(id: string, key: TaskKey, afterLadder: boolean): Promise<boolean> {
    const existing = [...this.rows.values()].find((t) => t.assetId === key.assetId && t.kind === key.kind && t.target === key.target);
    if (existing && OPEN_TASK_STATUSES.includes(existing.status)) return false;
    const reset = { status: 'queued' as const, afterLadder, attempts: 0, worker: null, leaseExpiresAt: null, error: null, updatedAt: new Date(this.now) };
    if (existing) Object.assign(existing, reset);
    else this.rows.set(id, { id, ...key, ...reset, createdAt: new Date(this.now + this.tick++) });
    return true;
  }

  async cancel(match: { assetId: string; kind?: string; target?: string }): Promise<TaskEntity[]> {
    const hit = [...this.rows.values()].filter(
      (t) =>
        t.assetId === match.assetId &&
        (match.kind === undefined || t.kind === match.kind) &&
        (match.target === undefined || t.target === match.target) &&
        OPEN_TASK_STATUSES.includes(t.status),
    );
    for (const t of hit) Object.assign(t, { status: 'cancelled', leaseExpiresAt: null });
    return hit.map((t) => ({ ...t }));
  }

  async claim(holder: string, leaseSeconds: number): Promise<TaskEntity | undefined> {
    const due = [...this.rows.values()]
      .filter(
        (t) =>
          ((t.status === 'queued' && (t.leaseExpiresAt === null || t.leaseExpiresAt.getTime() <= this.now)) ||
            (t.status === 'running' && t.leaseExpiresAt !== null && t.leaseExpiresAt.getTime() < this.now)) &&
          !(t.afterLadder && this.openJobAssets.has(t.assetId)),
      )
      .sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime())[0];
    if (!due) return undefined;
    Object.assign(due, { status: 'running', worker: holder, attempts: due.attempts + 1, leaseExpiresAt: new Date(this.now + leaseSeconds * 1000) });
    return { ...due };
  }

  async renew(id: string, holder: string, leaseSeconds: number): Promise<boolean> {
    return this.held(id, holder, (t) => (t.leaseExpiresAt = new Date(this.now + leaseSeconds * 1000)));
  }

  async finish(id: string, holder: string, status: 'done' | 'errored' | 'cancelled', error: string | null): Promise<boolean> {
    return this.held(id, holder, (t) => Object.assign(t, { status, error, leaseExpiresAt: null }));
  }

  async requeue(id: string, holder: string, o: { error: string | null; delaySeconds: number; refund: boolean }): Promise<boolean> {
    return this.held(id, holder, (t) =>
      Object.assign(t, {
        status: 'queued',
        leaseExpiresAt: new Date(this.now + o.delaySeconds * 1000),
        error: o.error ?? t.error,
        attempts: t.attempts - (o.refund ? 1 : 0),
      }),
    );
  }

  async findById(id: string): Promise<TaskEntity | undefined> {
    const t = this.rows.get(id);
    return t && { ...t };
  }

  async listForAsset(assetId: string): Promise<TaskEntity[]> {
    return [...this.rows.values()].filter((t) => t.assetId === assetId).map((t) => ({ ...t }));
  }

  async openIds(ids: string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => OPEN_TASK_STATUSES.includes(this.rows.get(id)?.status ?? 'done')));
  }

  private held(id: string, holder: string, change: (t: TaskEntity) => void): boolean {
    const t = this.rows.get(id);
    if (!t || t.worker !== holder || t.status !== 'running') return false;
    change(t);
    return true;
  }
}
