import { platformMetrics } from '@platform/metrics';
import { mkdir, rm } from 'node:fs/promises';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { JobEntity, JobPhase } from '../jobs/job.entity';
import { JobRepository } from '../jobs/job.repository';
import { JobsService } from '../jobs/jobs.service';
import { MediaTools } from '../media/media-tools';
import { ASSET_PROCESSING, AssetProcessing, isRefusal, isUnreachable } from '../pipeline/asset-processing';
import { JobContext } from '../pipeline/job-context';
import { TranscodePipeline } from '../pipeline/transcode-pipeline';
import { attemptTempDir, jobsWithTemp, recordChildPid, removeJobTemp } from '../temp-dirs';
import { JobAbort, jobAbortOf } from './job-abort';
import { JobEndings, retryDelaySeconds } from './job-endings';
import { LeaseKeeper } from './lease-keeper';

export const WORKER_ID = Symbol('WORKER_ID');
export { retryDelaySeconds } from './job-endings';

interface RunningJob {
  job: JobEntity;
  controller: AbortController;
  done: Promise<void>;
}

/** Wait before trying again while the assets service cannot be reached. */
export const UNREACHABLE_RETRY_SECONDS = 5;
/** At shutdown, how long running jobs get to stop and be handed back before the worker hands them back itself. */
export const SHUTDOWN_GRACE_MS = 10_000;

type JobStore = Pick<JobRepository, 'claim' | 'renew' | 'findById' | 'finish' | 'requeue' | 'markPlayable' | 'advanceToLadder' | 'openIds'>;

/**
 * The worker loop: every TRANSCODER_POLL_MS (and at once when a job is queued or a phase ends in this
 * process), it claims jobs for its free slots: ingest phases (download, probe, quick source rendition)
 * into TRANSCODER_INGEST_CONCURRENCY slots, ladder phases into TRANSCODER_CONCURRENCY encode slots, so a
 * slow download or a long ladder never keeps another asset from becoming playable. Each phase runs under
 * a lease; only the lease holder may finish it, and a lost lease stops the work without touching anything.
 */
@Injectable()
export class TranscodeWorker implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly jobPhases = platformMetrics.transcoderJobs();
  private readonly phaseDuration = platformMetrics.transcoderJobDuration();
  private readonly logger = new Logger('TranscodeWorker');
  private readonly running = new Map<string, RunningJob>();
  private timer?: NodeJS.Timeout;
  private polling = false;
  private pollAgain = false;
  private stopped = false;
  private readonly endings: JobEndings;

  constructor(
    @Inject(WORKER_ID) readonly id: string,
    @Inject(JobRepository) private readonly jobs: JobStore,
    @Inject(JobsService) private readonly jobsService: Pick<JobsService, 'onEnqueued' | 'onCancelled'>,
    @Inject(TranscodePipeline) private readonly pipeline: Pick<TranscodePipeline, 'run'>,
    @Inject(ASSET_PROCESSING) private readonly assets: AssetProcessing,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MediaTools) private readonly media: Pick<MediaTools, 'get'>,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {
    this.endings = new JobEndings(id, jobs, assets, store, config);
  }

  onApplicationBootstrap(): void {
    this.jobsService.onEnqueued(() => this.nudge());
    this.jobsService.onCancelled((job) => void this.cancelled(job));
    const { concurrency, ingestConcurrency, leaseSeconds } = this.config.transcoder;
    this.logger.log(`worker ${this.id}: ${ingestConcurrency} ingest slots, ${concurrency} encode slots, lease ${leaseSeconds} s`);
    void this.sweepTemp().finally(() => this.schedule(0));
  }

  /** Shutdown, first step: claim nothing more, stop every running job and hand it back (see `handBack`). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.handBack();
  }

  /** Idempotent: whatever onModuleDestroy left (an app closed without it) is handed back too. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.handBack();
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

  /** Claims and starts jobs until every free slot is used or none is due; resolves once they have started. */
  async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    this.pollAgain = false;
    try {
      for (const phase of ['ingest', 'ladder'] as const) {
        while (!this.stopped && this.free(phase) > 0) {
          await this.media.get(); // no ffmpeg, no claim: jobs wait in the queue (MediaTools logs why)
          const job = await this.jobs.claim(this.id, this.config.transcoder.leaseSeconds, phase);
          if (!job) break;
          if (this.stopped) {
            // shutdown began while this claim was on its way: the job goes straight back
            await this.jobs.requeue(job.id, this.id, { error: null, delaySeconds: 0, refund: true });
            break;
          }
          // Only if this process's own lease ran out (a stalled event loop): the run in progress goes on.
          if (this.running.has(job.id)) continue;
          this.start(job);
        }
      }
    } catch (err) {
      this.logger.warn(`poll failed: ${(err as Error).message}`);
    } finally {
      this.polling = false;
      this.schedule(this.pollAgain ? 0 : this.config.transcoder.pollMs);
    }
  }

  private free(phase: JobPhase): number {
    const slots = phase === 'ingest' ? this.config.transcoder.ingestConcurrency : this.config.transcoder.concurrency;
    const used = [...this.running.values()].filter((r) => r.job.phase === phase).length;
    return slots - used;
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
      await this.endings.giveUp(job, job.error ?? 'the worker stopped during every attempt');
      return;
    }
    const { dataDir } = this.config;
    const workDir = attemptTempDir(dataDir, job.id, job.attempts);
    await removeJobTemp(dataDir, job.id); // an earlier attempt's files, and its ffmpeg if it outlived a crash
    await mkdir(workDir, { recursive: true });
    const lease = new LeaseKeeper(this.jobs, job.id, this.id, this.config.transcoder.leaseSeconds, controller);
    lease.start();
    this.logger.log(`job ${job.id} (asset ${job.assetId}): ${job.phase} attempt ${job.attempts} started`);
    const context: JobContext = {
      jobId: job.id,
      assetId: job.assetId,
      attempt: job.attempts,
      phase: job.phase,
      inputKey: job.inputKey,
      signal: controller.signal,
      workDir,
      checkpoint: () => lease.checkpoint(),
      markPlayable: async () => {
        if (!(await this.jobs.markPlayable(job.id, this.id))) await lease.checkpoint();
      },
      onChild: (pid) => void recordChildPid(workDir, pid),
    };
    const started = Date.now();
    const measure = (outcome: string) => {
      this.jobPhases.inc({ service: 'transcoder', phase: job.phase, outcome });
      this.phaseDuration.observe({ service: 'transcoder', phase: job.phase }, (Date.now() - started) / 1000);
    };
    try {
      const outcome = await this.pipeline.run(context);
      lease.stop();
      measure(outcome.status);
      if (outcome.status === 'ladder') {
        if (!(await this.jobs.advanceToLadder(job.id, this.id, outcome.inputKey))) this.logger.warn(`job ${job.id}: ingested but no longer held`);
        return;
      }
      const error = outcome.status === 'errored' ? outcome.error : null;
      if (!(await this.endings.end(job, outcome.status, error))) return;
      this.logger.log(`job ${job.id} (asset ${job.assetId}): ${outcome.status}${error ? ` (${error})` : ''}`);
    } catch (err) {
      lease.stop();
      measure(jobAbortOf(controller.signal)?.kind ?? 'failed');
      await this.afterFailure(job, controller.signal, err);
    } finally {
      lease.stop();
      await rm(workDir, { recursive: true, force: true });
    }
  }

  private async afterFailure(job: JobEntity, signal: AbortSignal, err: unknown): Promise<void> {
    const abort = jobAbortOf(signal);
    const message = err instanceof Error ? err.message : String(err);
    if (abort?.kind === 'lease_lost') {
      this.logger.warn(`job ${job.id}: stopped, ${abort.message}`);
    } else if (abort?.kind === 'cancelled') {
      this.logger.log(`job ${job.id}: asset ${job.assetId} deleted, work stopped`);
      await this.endings.removeStoredFiles(job);
    } else if (abort?.kind === 'shutdown') {
      await this.jobs.requeue(job.id, this.id, { error: null, delaySeconds: 0, refund: true });
    } else if (isUnreachable(err)) {
      // The assets service is down or restarting: not the job's fault, so the attempt is not counted.
      this.logger.warn(`job ${job.id}: assets service unreachable (${message}); trying again in ${UNREACHABLE_RETRY_SECONDS} s`);
      await this.jobs.requeue(job.id, this.id, { error: message, delaySeconds: UNREACHABLE_RETRY_SECONDS, refund: true });
    } else if (isRefusal(err)) {
      await this.endings.refused(job, message);
    } else {
      this.logger.warn(`job ${job.id}: ${job.phase} attempt ${job.attempts} failed: ${message}`);
      if (job.attempts >= this.config.transcoder.maxAttempts) await this.endings.giveUp(job, message);
      else await this.jobs.requeue(job.id, this.id, { error: message, delaySeconds: retryDelaySeconds(job.attempts), refund: false });
    }
  }

  /**
   * Stops every job running here (ffmpeg gets SIGTERM, then SIGKILL; a download thread ends at once) and
   * gives it back to the queue, due now, the attempt not counted, so the restarted worker or another one
   * takes it at once instead of after the lease. A job not stopped within SHUTDOWN_GRACE_MS (a call to
   * the assets service hanging) is given back anyway: its late writes then fail, as a lost lease's do.
   */
  private async handBack(): Promise<void> {
    const running = [...this.running.values()];
    if (running.length === 0) return;
    for (const r of running) r.controller.abort(new JobAbort('shutdown'));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
    await Promise.race([Promise.allSettled(running.map((r) => r.done)), grace]);
    clearTimeout(timer);
    for (const r of running.filter((r) => this.running.has(r.job.id))) {
      this.running.delete(r.job.id);
      await this.jobs.requeue(r.job.id, this.id, { error: null, delaySeconds: 0, refund: true }).catch(() => false);
    }
    this.logger.log(`shutdown: ${running.length} job(s) handed back`);
  }

  /** `video.asset.deleted` reached this process: stop the job if it runs here, drop any local files. */
  private async cancelled(job: JobEntity): Promise<void> {
    const running = this.running.get(job.id);
    if (running) running.controller.abort(new JobAbort('cancelled'));
    else await removeJobTemp(this.config.dataDir, job.id).catch(() => undefined);
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
