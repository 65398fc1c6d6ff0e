import { mkdir, rm } from 'node:fs/promises';
import { Logger } from '@nestjs/common';
import { PlatformConfig } from '@platform/config';
import { isRefusal, isUnreachable } from '../pipeline/asset-processing';
import { attemptTempDir, recordChildPid, removeJobTemp, taskTempRoot } from '../temp-dirs';
import { JobAbort, jobAbortOf } from '../worker/job-abort';
import { retryDelaySeconds } from '../worker/job-endings';
import { LeaseKeeper } from '../worker/lease-keeper';
import { TaskEntity } from './task.entity';
import { TaskContext, TaskHandler, TaskOutcome } from './task-handler';
import { TaskRepository } from './task.repository';

/** Wait before trying again while the assets service cannot be reached (the attempt is not counted). */
export const TASK_UNREACHABLE_RETRY_SECONDS = 5;

export type TaskStore = Pick<TaskRepository, 'renew' | 'findById' | 'finish' | 'requeue'>;

/**
 * One claim of one task, from start to end: scratch folder, lease, the handler's run, and what its
 * outcome or failure means for the task (done, later, retried with back-off, given up). Only the claim
 * that holds the task writes it; a lost lease stops the run without touching anything.
 */
export class TaskRun {
  private readonly logger = new Logger('TaskWorker');
  readonly controller = new AbortController();

  constructor(
    readonly task: TaskEntity,
    private readonly handler: TaskHandler | undefined,
    private readonly tasks: TaskStore,
    private readonly config: PlatformConfig,
  ) {}

  get holder(): string {
    return this.task.worker ?? '';
  }

  async execute(): Promise<void> {
    const { task } = this;
    if (!this.handler) {
      await this.tasks.finish(task.id, this.holder, 'errored', `no handler for tasks of kind ${task.kind}`);
      return;
    }
    if (task.attempts > this.config.transcoder.maxAttempts) {
      await this.giveUp(this.handler, task.error ?? 'the worker stopped during every attempt');
      return;
    }
    const root = taskTempRoot(this.config.dataDir);
    const workDir = attemptTempDir(this.config.dataDir, task.id, task.attempts, root);
    await removeJobTemp(this.config.dataDir, task.id, root);
    await mkdir(workDir, { recursive: true });
    const lease = new LeaseKeeper(this.tasks, task.id, this.holder, this.config.transcoder.leaseSeconds, this.controller);
    lease.start();
    this.logger.log(`task ${task.id} (${task.kind} ${task.target || '-'} of asset ${task.assetId}): attempt ${task.attempts} started`);
    try {
      this.controller.signal.throwIfAborted();
      const outcome = await this.handler.run(this.context(workDir, lease));
      lease.stop();
      await this.conclude(outcome);
    } catch (err) {
      lease.stop();
      await this.afterFailure(this.handler, err);
    } finally {
      lease.stop();
      await rm(workDir, { recursive: true, force: true });
    }
  }

  /** Gives the task back at once, the attempt not counted (this worker stops). */
  async handBack(): Promise<void> {
    await this.tasks.requeue(this.task.id, this.holder, { error: null, delaySeconds: 0, refund: true }).catch(() => false);
  }

  private context(workDir: string, lease: LeaseKeeper): TaskContext {
    const { task } = this;
    return {
      taskId: task.id,
      assetId: task.assetId,
      kind: task.kind,
      target: task.target,
      attempt: task.attempts,
      signal: this.controller.signal,
      workDir,
      checkpoint: () => lease.checkpoint(),
      onChild: (pid) => void recordChildPid(workDir, pid),
    };
  }

  private async conclude(outcome: TaskOutcome): Promise<void> {
    const { task } = this;
    if (outcome.status === 'later') {
      await this.tasks.requeue(task.id, this.holder, { error: outcome.reason, delaySeconds: outcome.delaySeconds, refund: true });
      this.logger.log(`task ${task.id}: not yet (${outcome.reason}); again in ${outcome.delaySeconds} s`);
      return;
    }
    const error = outcome.status === 'errored' ? outcome.error : outcome.status === 'cancelled' ? outcome.reason : null;
    if (!(await this.tasks.finish(task.id, this.holder, outcome.status, error))) {
      this.logger.warn(`task ${task.id}: ended as ${outcome.status} but no longer held; left to its holder`);
      return;
    }
    this.logger.log(`task ${task.id} (${task.kind} of asset ${task.assetId}): ${outcome.status}${error ? ` (${error})` : ''}`);
  }

  private async afterFailure(handler: TaskHandler, err: unknown): Promise<void> {
    const { task } = this;
    const abort = jobAbortOf(this.controller.signal);
    const message = err instanceof Error ? err.message : String(err);
    if (abort?.kind === 'lease_lost') this.logger.warn(`task ${task.id}: stopped, ${abort.message}`);
    else if (abort?.kind === 'cancelled') this.logger.log(`task ${task.id}: cancelled, work stopped`);
    else if (abort?.kind === 'shutdown') await this.handBack();
    else if (isUnreachable(err)) {
      this.logger.warn(`task ${task.id}: assets service unreachable (${message}); trying again in ${TASK_UNREACHABLE_RETRY_SECONDS} s`);
      await this.tasks.requeue(task.id, this.holder, { error: message, delaySeconds: TASK_UNREACHABLE_RETRY_SECONDS, refund: true });
    } else if (isRefusal(err) || task.attempts >= this.config.transcoder.maxAttempts) {
      await this.giveUp(handler, message);
    } else {
      this.logger.warn(`task ${task.id}: attempt ${task.attempts} failed: ${message}`);
      await this.tasks.requeue(task.id, this.holder, { error: message, delaySeconds: retryDelaySeconds(task.attempts), refund: false });
    }
  }

  /** The handler tells the asset; the task ends. If the assets service cannot be reached, the task waits and gives up again later. */
  private async giveUp(handler: TaskHandler, message: string): Promise<void> {
    const { task } = this;
    this.logger.warn(`task ${task.id} (${task.kind} of asset ${task.assetId}): given up after ${task.attempts} attempts: ${message}`);
    try {
      await handler.giveUp(task, message);
    } catch (err) {
      if (!isRefusal(err)) {
        await this.tasks.requeue(task.id, this.holder, { error: message, delaySeconds: retryDelaySeconds(task.attempts), refund: false });
        return;
      }
    }
    await this.tasks.finish(task.id, this.holder, 'errored', message);
  }

  /** Stops the run (lease kept by nobody: the status tells what happened). */
  abort(reason: JobAbort): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}
