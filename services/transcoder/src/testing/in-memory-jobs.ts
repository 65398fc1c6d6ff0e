import { JobEntity, JobPhase, JobStatus, OPEN_STATUSES } from '../jobs/job.entity';
import { JobRepository } from '../jobs/job.repository';

const HELD: readonly JobStatus[] = ['running', 'playable'];

/** JobRepository's contract in memory, on a clock the test moves (`now`). */
export class InMemoryJobs implements Pick<JobRepository, keyof JobRepository> {
  readonly rows = new Map<string, JobEntity>();
  now = Date.UTC(2024, 0, 1);
  private tick = 0;

  add(job: Partial<JobEntity> & Pick<JobEntity, 'id' | 'assetId'>): JobEntity {
    const row: JobEntity = {
      status: 'queued',
      phase: 'ingest',
      attempts: 0,
      playable: false,
      inputKey: null,
      worker: null,
      leaseExpiresAt: null,
      error: null,
      createdAt: new Date(this.now + this.tick++),
      updatedAt: new Date(this.now),
      ...job,
    };
    this.rows.set(row.id, row);
    return row;
  }

  async enqueue(id: string, assetId: string): Promise<boolean> {
    if ([...this.rows.values()].some((j) => j.assetId === assetId)) return false;
    this.add({ id, assetId });
    return true;
  }

  async cancelAsset(id: string, assetId: string): Promise<JobEntity | undefined> {
    const job = [...this.rows.values()].find((j) => j.assetId === assetId);
    if (!job) return { ...this.add({ id, assetId, status: 'cancelled' }) };
    if (!OPEN_STATUSES.includes(job.status)) return undefined;
    Object.assign(job, { status: 'cancelled', leaseExpiresAt: null, updatedAt: new Date(this.now) });
    return { ...job };
  }

  claim(worker: string, leaseSeconds: number, phase: JobPhase): Promise<JobEntity | undefined> {
    const due = [...this.rows.values()]
      .filter(
        (j) =>
          j.phase === phase &&
          ((j.status === 'queued' && (j.leaseExpiresAt === null || j.leaseExpiresAt.getTime() <= this.now)) ||
            (HELD.includes(j.status) && j.leaseExpiresAt !== null && j.leaseExpiresAt.getTime() < this.now)),
      )
      .sort((a, b) => Number(a.playable) - Number(b.playable) || a.createdAt.getTime() - b.createdAt.getTime());
    const job = due[0];
    if (!job) return Promise.resolve(undefined);
    const status: JobStatus = job.playable ? 'playable' : 'running';
    Object.assign(job, { status, worker, leaseExpiresAt: this.lease(leaseSeconds), attempts: job.attempts + 1 });
    return Promise.resolve({ ...job });
  }

  async renew(id: string, worker: string, leaseSeconds: number): Promise<boolean> {
    return this.update(id, worker, { leaseExpiresAt: this.lease(leaseSeconds) });
  }

  async markPlayable(id: string, worker: string): Promise<boolean> {
    return this.update(id, worker, { status: 'playable', playable: true });
  }

  advanceToLadder(id: string, worker: string, inputKey: string | null): Promise<boolean> {
    return Promise.resolve(this.update(id, worker, { phase: 'ladder', status: 'queued', attempts: 0, inputKey, leaseExpiresAt: null, error: null }));
  }

  async finish(id: string, worker: string, status: 'done' | 'errored' | 'cancelled', error: string | null): Promise<boolean> {
    return this.update(id, worker, { status, error, leaseExpiresAt: null });
  }

  async requeue(id: string, worker: string, o: { error: string | null; delaySeconds: number; refund: boolean }): Promise<boolean> {
    const job = this.rows.get(id);
    return this.update(id, worker, {
      status: 'queued',
      leaseExpiresAt: this.lease(o.delaySeconds),
      error: o.error ?? job?.error ?? null,
      attempts: (job?.attempts ?? 0) - (o.refund ? 1 : 0),
    });
  }

  async findById(id: string): Promise<JobEntity | undefined> {
    const job = this.rows.get(id);
    return job && { ...job };
  }

  async findByAssetId(assetId: string): Promise<JobEntity | undefined> {
    const job = [...this.rows.values()].find((j) => j.assetId === assetId);
    return job && { ...job };
  }

  async list(limit: number, offset: number): Promise<JobEntity[]> {
    return [...this.rows.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(offset, offset + limit);
  }

  async openIds(ids: string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => OPEN_STATUSES.includes(this.rows.get(id)?.status ?? 'done')));
  }

  async openCounts(): Promise<Array<{ phase: string; status: string; count: number }>> {
    const counts = new Map<string, number>();
    for (const j of this.rows.values())
      if (OPEN_STATUSES.includes(j.status)) counts.set(`${j.phase} ${j.status}`, (counts.get(`${j.phase} ${j.status}`) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, count]) => ({ phase: key.split(' ')[0], status: key.split(' ')[1], count }));
  }

  private lease(seconds: number): Date {
    return new Date(this.now + seconds * 1000);
  }

  private update(id: string, worker: string, changes: Partial<JobEntity>): boolean {
    const job = this.rows.get(id);
    if (!job || job.worker !== worker || !HELD.includes(job.status)) return false;
    Object.assign(job, changes, { updatedAt: new Date(this.now) });
    return true;
  }
}
