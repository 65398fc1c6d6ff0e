import { mkdir, rm } from 'node:fs/promises';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { assetKeys, OBJECT_STORE, ObjectStore } from '@platform/storage';
import { JobEntity } from '../jobs/job.entity';
import { JobRepository } from '../jobs/job.repository';
import { JobsService } from '../jobs/jobs.service';
import { MediaTools } from '../media/media-tools';
import { ASSET_PROCESSING, AssetProcessing, isUnreachable } from '../pipeline/asset-processing';
import { JobContext } from '../pipeline/job-context';
import { TranscodePipeline } from '../pipeline/transcode-pipeline';
import { attemptTempDir, jobsWithTemp, recordChildPid, removeJobTemp } from '../temp-dirs';
import { JobAbort, jobAbortOf } from './job-abort';
import { LeaseKeeper } from './lease-keeper';
import { newWorkerId } from './worker-id';

export const WORKER_ID = Symbol('WORKER_ID');

interface RunningJob {
  job: JobEntity;
  controller: AbortController;
  done: Promise<void>;
}

/** Wait before trying again while the assets service cannot be reached. */
export const UNREACHABLE_RETRY_SECONDS = 5;

/** Back-off before a failed attempt is tried again: 5 s, 10 s, 20 s … at most 60 s. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(60, 5 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The worker loop: every TRANSCODER_POLL_MS (and at once when a job is queued in this process), while
 * fewer than TRANSCODER_CONCURRENCY jobs run here, claim one and run the pipeline under a lease. Only
 * the lease holder may finish a job; a lost lease stops the work without touching anything.
 */
@Injectable()
export class TranscodeWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TranscodeWorker');
  private readonly running = new Map<string, RunningJob>();
  private timer?: NodeJS.Timeout;
  private polling = false;
  private pollAgain = false;
  private stopped = false;

  constructor(
    @Inject(WORKER_ID) readonly id: string,
    @Inject(JobRepository) private readonly jobs: Pick<JobRepository, 'claim' | 'renew' | 'findById' | 'finish' | 'requeue' | 'markPlayable' | 'openIds'>,
    @Inject(JobsService) private readonly jobsService: Pick<JobsService, 'onEnqueued' | 'onCancelled'>,
    @Inject(TranscodePipeline) private readonly pipeline: Pick<TranscodePipeline, 'run'>,
    @Inject(ASSET_PROCESSING) private readonly assets: AssetProcessing,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MediaTools) private readonly media: Pick<MediaTools, 'get'>,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.jobsService.onEnqueued(() => this.nudge());
    this.jobsService.onCancelled((job) => void this.cancelled(job));
    this.logger.log(`worker ${this.id}: concurrency ${this.config.transcoder.concurrency}, lease ${this.config.transcoder.leaseSeconds} s`);
    void this.sweepTemp().finally(() => this.schedule(0));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const running = [...this.running.values()];
    for (const r of running) r.controller.abort(new JobAbort('shutdown'));
    await Promise.allSettled(running.map((r) => r.done));
  }

  /** Look for work now rather than at the next poll. */
  nudge(): void {
    if (this.polling) this.pollAgain = true;
    else this.schedule(0);
  }

  /** Ids of the jobs running in this process. */
  runningJobIds(): string[] {
    return [...this.running.keys()];
  }

  /** Claims and starts jobs until the concurrency is used or none is due; resolves once they have started. */
  async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    this.pollAgain = false;
    try {
      while (!this.stopped && this.running.size < this.config.transcoder.concurrency) {
        await this.media.get(); // no ffmpeg, no claim: jobs wait in the queue (MediaTools logs why)
        const job = await this.jobs.claim(this.id, this.config.transcoder.leaseSeconds);
        if (!job) break;
        // Only if this process's own lease ran out (a stalled event loop): the run in progress goes on.
        if (this.running.has(job.id)) continue;
        this.start(job);
      }
    } catch (err) {
      this.logger.warn(`poll failed: ${(err as Error).message}`);
    } finally {
      this.polling = false;
      this.schedule(this.pollAgain ? 0 : this.config.transcoder.pollMs);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
  }

  private start(job: JobEntity): void {
    const controller = new AbortController();
    const entry: RunningJob = { job, controller, done: Promise.resolve() };
    this.running.set(job.id, entry);
    entry.done = this.execute(job, controller)
      .catch((err: unknown) => this.logger.error(`job ${job.id}: ${(err as Error).message}`))
      .finally(() => {
        this.running.delete(job.id);
        this.nudge();
      });
  }

  private async execute(job: JobEntity, controller: AbortController): Promise<void> {
    if (job.attempts > this.config.transcoder.maxAttempts) {
      await this.giveUp(job, job.error ?? 'the worker stopped during every attempt');
      return;
    }
    const { dataDir } = this.config;
    const workDir = attemptTempDir(dataDir, job.id, job.attempts);
    await removeJobTemp(dataDir, job.id); // an earlier attempt's files, and its ffmpeg if it outlived a crash
    await mkdir(workDir, { recursive: true });
    const lease = new LeaseKeeper(this.jobs, job.id, this.id, this.config.transcoder.leaseSeconds, controller);
    lease.start();
    this.logger.log(`job ${job.id} (asset ${job.assetId}): attempt ${job.attempts} started`);
    const context: JobContext = {
      jobId: job.id,
      assetId: job.assetId,
      attempt: job.attempts,
      signal: controller.signal,
      workDir,
      checkpoint: () => lease.checkpoint(),
      markPlayable: async () => {
        if (!(await this.jobs.markPlayable(job.id, this.id))) await lease.checkpoint();
      },
      onChild: (pid) => void recordChildPid(workDir, pid),
    };
    try {
      const outcome = await this.pipeline.run(context);
      lease.stop();
      const error = outcome.status === 'errored' ? outcome.error : null;
      if (!(await this.jobs.finish(job.id, this.id, outcome.status, error))) {
        this.logger.warn(`job ${job.id}: finished as ${outcome.status} but no longer held; left to its holder`);
        return;
      }
      if (outcome.status === 'cancelled') await this.removeStoredFiles(job);
      this.logger.log(`job ${job.id} (asset ${job.assetId}): ${outcome.status}${error ? ` (${error})` : ''}`);
    } catch (err) {
      lease.stop();
      await this.afterFailure(job, controller.signal, err);
    } finally {
      lease.stop();
      await rm(workDir, { recursive: true, force: true });
    }
  }

  private async afterFailure(job: JobEntity, signal: AbortSignal, err: unknown): Promise<void> {
    const abort = jobAbortOf(signal);
    if (abort?.kind === 'lease_lost') {
      this.logger.warn(`job ${job.id}: stopped, ${abort.message}`);
    } else if (abort?.kind === 'cancelled') {
      this.logger.log(`job ${job.id}: asset ${job.assetId} deleted, work stopped`);
      await this.removeStoredFiles(job);
    } else if (abort?.kind === 'shutdown') {
      await this.jobs.requeue(job.id, this.id, { error: null, delaySeconds: 0, refund: true });
    } else if (isUnreachable(err)) {
      // The assets service is down or restarting: not the job's fault, so the attempt is not counted.
      const message = err instanceof Error ? err.message : String(err);
      this.logger.warn(`job ${job.id}: assets service unreachable (${message}); trying again in ${UNREACHABLE_RETRY_SECONDS} s`);
      await this.jobs.requeue(job.id, this.id, { error: message, delaySeconds: UNREACHABLE_RETRY_SECONDS, refund: true });
    } else {
      const message = err instanceof Error ? err.message : String(err);
      this.logger.warn(`job ${job.id}: attempt ${job.attempts} failed: ${message}`);
      if (job.attempts >= this.config.transcoder.maxAttempts) await this.giveUp(job, message);
      else await this.jobs.requeue(job.id, this.id, { error: message, delaySeconds: retryDelaySeconds(job.attempts), refund: false });
    }
  }

  /** Out of attempts: the asset is errored (if this worker still holds the job). */
  private async giveUp(job: JobEntity, lastError: string): Promise<void> {
    if (!(await this.jobs.renew(job.id, this.id, this.config.transcoder.leaseSeconds))) return;
    try {
      await this.assets.markErrored(job.assetId, {
        type: 'unknown',
        messages: [`The input file could not be processed after ${this.config.transcoder.maxAttempts} attempts.`],
      });
    } catch (err) {
      // The assets service is unreachable: keep the job and give up again later.
      await this.jobs.requeue(job.id, this.id, { error: lastError, delaySeconds: retryDelaySeconds(job.attempts), refund: false });
      throw err;
    }
    await this.jobs.finish(job.id, this.id, 'errored', lastError);
    this.logger.warn(`job ${job.id} (asset ${job.assetId}): errored after ${job.attempts} attempts: ${lastError}`);
  }

  /** `video.asset.deleted` reached this process: stop the job if it runs here, drop any local files. */
  private async cancelled(job: JobEntity): Promise<void> {
    const running = this.running.get(job.id);
    if (running) running.controller.abort(new JobAbort('cancelled'));
    else await removeJobTemp(this.config.dataDir, job.id).catch(() => undefined);
  }

  /** The asset is gone: whatever an attempt stored for it goes too (the assets service may have deleted before). */
  private async removeStoredFiles(job: JobEntity): Promise<void> {
    await this.store.deletePrefix(assetKeys.prefix(job.assetId)).catch((err: unknown) => {
      this.logger.warn(`asset ${job.assetId}: stored files not removed: ${(err as Error).message}`);
    });
  }

  /** Scratch folders of jobs that are over (a crash skipped their clean-up). */
  private async sweepTemp(): Promise<void> {
    try {
      const ids = await jobsWithTemp(this.config.dataDir);
      const open = await this.jobs.openIds(ids);
      for (const id of ids) if (!open.has(id)) await removeJobTemp(this.config.dataDir, id);
    } catch (err) {
      this.logger.warn(`temp sweep failed: ${(err as Error).message}`);
    }
  }
}
