import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PLATFORM_CONFIG, PlatformConfig } from '@platform/config';
import { MediaTools } from '../media/media-tools';
import { jobsWithTemp, removeJobTemp, taskTempRoot } from '../temp-dirs';
import { JobAbort } from '../worker/job-abort';
import { SHUTDOWN_GRACE_MS } from '../worker/transcode-worker';
import { TaskEntity } from './task.entity';
import { TASK_HANDLERS, TaskHandler } from './task-handler';
import { TaskRepository } from './task.repository';
import { TaskRun } from './task-run';

export const TASK_WORKER_ID = Symbol('TASK_WORKER_ID');

type TaskWorkerStore = Pick<TaskRepository, 'claim' | 'renew' | 'findById' | 'finish' | 'requeue' | 'openIds'>;

/**
 * The asset-task loop: every TRANSCODER_POLL_MS (and at once when a task is queued in this process or a
 * run ends), it claims tasks for its TRANSCODER_TASK_CONCURRENCY slots, apart from the ingest and encode
 * slots of transcoding jobs, and runs each with its kind's handler under a lease (`TaskRun`).
 */
@Injectable()
export class TaskWorker implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('TaskWorker');
  private readonly running = new Map<string, { run: TaskRun; done: Promise<void> }>();
  private readonly handlers: Map<string, TaskHandler>;
  private timer?: NodeJS.Timeout;
  private polling = false;
  private pollAgain = false;
  private stopped = false;
  private claims = 0;

  constructor(
    @Inject(TASK_WORKER_ID) readonly id: string,
    @Inject(TaskRepository) private readonly tasks: TaskWorkerStore,
    @Inject(TASK_HANDLERS) handlers: TaskHandler[],
    @Inject(MediaTools) private readonly media: Pick<MediaTools, 'get'>,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {
    this.handlers = new Map(handlers.map((h) => [h.kind, h]));
  }

  onApplicationBootstrap(): void {
    this.logger.log(`task worker ${this.id}: ${this.config.transcoder.taskConcurrency} task slots (${[...this.handlers.keys()].join(', ') || 'no kinds'})`);
    void this.sweepTemp().finally(() => this.schedule(0));
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.handBack();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.handBack();
  }

  /** Look for work now rather than at the next poll. */
  nudge(): void {
    if (this.polling) this.pollAgain = true;
    else this.schedule(0);
  }

  /** Stops the runs of these tasks in this process (they were cancelled: their status says so). */
  stop(tasks: TaskEntity[]): void {
    for (const task of tasks) this.running.get(task.id)?.run.abort(new JobAbort('cancelled'));
  }

  runningTaskIds(): string[] {
    return [...this.running.keys()];
  }

  /** Claims and starts tasks until every slot is used or none is due; resolves once they have started. */
  async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    this.pollAgain = false;
    try {
      while (!this.stopped && this.running.size < this.config.transcoder.taskConcurrency) {
        await this.media.get();
        const task = await this.tasks.claim(`${this.id}/${++this.claims}`, this.config.transcoder.leaseSeconds);
        if (!task) break;
        const run = new TaskRun(task, this.handlers.get(task.kind), this.tasks, this.config);
        if (this.stopped) {
          await run.handBack();
          break;
        }
        this.start(run);
      }
    } catch (err) {
      this.logger.warn(`poll failed: ${(err as Error).message}`);
    } finally {
      this.polling = false;
      this.schedule(this.pollAgain ? 0 : this.config.transcoder.pollMs);
    }
  }

  private start(run: TaskRun): void {
    const done = run
      .execute()
      .catch((err: unknown) => this.logger.error(`task ${run.task.id}: ${(err as Error).message}`))
      .finally(() => {
        this.running.delete(run.task.id);
        this.nudge();
      });
    this.running.set(run.task.id, { run, done });
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
  }

  /** As the transcoding worker does: stop every run, hand each task back (attempt not counted), within a grace period. */
  private async handBack(): Promise<void> {
    const running = [...this.running.values()];
    if (running.length === 0) return;
    for (const { run } of running) run.abort(new JobAbort('shutdown'));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
    await Promise.race([Promise.allSettled(running.map((r) => r.done)), grace]);
    clearTimeout(timer);
    for (const { run } of running.filter(({ run }) => this.running.has(run.task.id))) {
      this.running.delete(run.task.id);
      await run.handBack();
    }
    this.logger.log(`shutdown: ${running.length} task(s) handed back`);
  }

  /** Scratch folders of tasks that are over (a crash skipped their clean-up). */
  private async sweepTemp(): Promise<void> {
    const root = taskTempRoot(this.config.dataDir);
    try {
      const ids = await jobsWithTemp(this.config.dataDir, root);
      const open = await this.tasks.openIds(ids);
      for (const id of ids) if (!open.has(id)) await removeJobTemp(this.config.dataDir, id, root);
    } catch (err) {
      this.logger.warn(`task temp sweep failed: ${(err as Error).message}`);
    }
  }
}
