import { Logger } from '@nestjs/common';
import { JobAbort } from './job-abort';

/** Where leases live: transcoding jobs and asset tasks. */
export interface LeaseStore {
  /** False when `holder` no longer holds `id`. */
  renew(id: string, holder: string, leaseSeconds: number): Promise<boolean>;
  findById(id: string): Promise<{ status: string; worker: string | null } | undefined>;
}

/**
 * Keeps one job's (or task's) lease while it runs: renews it every lease/3 and, as soon as a renewal finds the job
 * no longer held by this worker (taken over after an expiry, or cancelled), aborts the job's signal.
 * If renewals keep failing (database unreachable) until the lease could have expired, it aborts too:
 * another worker may hold the job by then, so this one must stop writing.
 */
export class LeaseKeeper {
  private readonly logger = new Logger('LeaseKeeper');
  private timer?: NodeJS.Timeout;
  private lastRenewedAt = Date.now();

  constructor(
    private readonly store: LeaseStore,
    private readonly jobId: string,
    private readonly worker: string,
    private readonly leaseSeconds: number,
    private readonly controller: AbortController,
    private readonly now: () => number = Date.now,
  ) {
    this.lastRenewedAt = now();
  }

  start(): void {
    this.timer = setInterval(() => void this.renew(), Math.max(100, (this.leaseSeconds * 1000) / 3));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Renews now; throws the abort reason when the job is no longer this worker's. */
  async checkpoint(): Promise<void> {
    await this.renew();
    this.controller.signal.throwIfAborted();
  }

  async renew(): Promise<void> {
    if (this.controller.signal.aborted) return;
    let held: boolean;
    try {
      held = await this.store.renew(this.jobId, this.worker, this.leaseSeconds);
    } catch (err) {
      const since = this.now() - this.lastRenewedAt;
      this.logger.warn(`job ${this.jobId}: lease renewal failed (${(err as Error).message})`);
      if (since >= this.leaseSeconds * 1000) this.abort(new JobAbort('lease_lost', `not renewed for ${Math.round(since / 1000)} s`));
      return;
    }
    if (held) {
      this.lastRenewedAt = this.now();
      return;
    }
    const job = await this.store.findById(this.jobId).catch(() => undefined);
    this.abort(job?.status === 'cancelled' ? new JobAbort('cancelled') : new JobAbort('lease_lost', `now held by ${job?.worker ?? 'nobody'}`));
  }

  private abort(reason: JobAbort): void {
    this.stop();
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}
