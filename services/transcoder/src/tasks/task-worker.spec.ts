import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, PlatformConfig } from '@platform/config';
import { GrpcStatus } from '@platform/errors';
import { EventData, EventType, RegisteredEvent } from '@platform/events';
import { assetBody, eventually, fakeProcessedEvents, testEvent } from '@platform/testing';
import { FakeMediaRunner, fakeMediaTools } from '../testing/fake-media-runner';
import { InMemoryTasks } from '../testing/in-memory-tasks';
import { TaskEntity } from './task.entity';
import { TaskContext, TaskHandler, TaskOutcome, trigger } from './task-handler';
import { TASK_UNREACHABLE_RETRY_SECONDS } from './task-run';
import { TaskTriggersConsumer } from './task-triggers.consumer';
import { TaskWorker } from './task-worker';

/** A handler whose runs the test ends by hand. */
class ControlledHandler implements TaskHandler {
  readonly kind = 'text_track';
  readonly afterLadder = false;
  readonly triggers = [
    trigger({
      type: 'video.asset.track.created',
      assetId: (e) => e.data.asset_id,
      queue: (e) => (e.data.type === 'text' ? [e.data.id] : []),
    }),
    // any track event can cancel: `errored` stands for the deletion a tracks handler would use
    trigger({ type: 'video.asset.track.errored', assetId: (e) => e.data.asset_id, cancel: (e) => [e.data.id] }),
  ];
  readonly contexts = new Map<string, TaskContext>();
  readonly givenUp: Array<[string, string]> = [];
  giveUpError?: Error;
  private readonly pending = new Map<string, { resolve: (o: TaskOutcome) => void; reject: (e: unknown) => void }>();

  run = jest.fn(
    (ctx: TaskContext) =>
      new Promise<TaskOutcome>((resolve, reject) => {
        this.contexts.set(ctx.target, ctx);
        this.pending.set(ctx.target, { resolve, reject });
        const aborted = () => reject(ctx.signal.reason as Error);
        if (ctx.signal.aborted) aborted();
        ctx.signal.addEventListener('abort', aborted);
      }),
  );

  giveUp(task: TaskEntity, message: string): Promise<void> {
    this.givenUp.push([task.target, message]);
    return this.giveUpError ? Promise.reject(this.giveUpError) : Promise.resolve();
  }

  finish(target: string, outcome: TaskOutcome = { status: 'done' }): void {
    this.pending.get(target)!.resolve(outcome);
  }

  fail(target: string, error: unknown): void {
    this.pending.get(target)!.reject(error);
  }
}

const grpcError = (code: number, message: string) => Object.assign(new Error(message), { code });

describe('TaskWorker', () => {
  beforeAll(() => Logger.overrideLogger(false));
  let dataDir: string;
  let tasks: InMemoryTasks;
  let handler: ControlledHandler;
  let config: PlatformConfig;
  let worker: TaskWorker;

  const task = (target: string) => [...tasks.rows.values()].find((t) => t.target === target)!;
  const queue = async (target: string, assetId = 'a1') => tasks.enqueue(`task-${target}`, { assetId, kind: 'text_track', target }, false);

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tasks-'));
    tasks = new InMemoryTasks();
    handler = new ControlledHandler();
    const transcoder = { concurrency: 1, ingestConcurrency: 1, taskConcurrency: 2, leaseSeconds: 30, maxAttempts: 3, pollMs: 60_000 };
    config = { ...loadConfig({}), dataDir, transcoder };
    worker = new TaskWorker('w', tasks, [handler], fakeMediaTools(new FakeMediaRunner()), config);
  });
  afterEach(async () => {
    await worker.onModuleDestroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs queued tasks in its task slots, each with its kind’s handler in a scratch folder, and ends them done', async () => {
    for (const t of ['t1', 't2', 't3']) await queue(t);
    await worker.poll();
    expect(worker.runningTaskIds().sort()).toEqual(['task-t1', 'task-t2']);
    await eventually(() => expect(handler.contexts.size).toBe(2));
    const ctx = handler.contexts.get('t1')!;
    expect(ctx).toMatchObject({ assetId: 'a1', kind: 'text_track', target: 't1', attempt: 1 });
    expect(existsSync(ctx.workDir)).toBe(true);
    handler.finish('t1');
    await eventually(() => expect(task('t1').status).toBe('done'));
    // the scratch folder goes right after the task is ended
    await eventually(() => expect(existsSync(ctx.workDir)).toBe(false));
    await eventually(() => expect(worker.runningTaskIds()).toContain('task-t3')); // the freed slot is used at once
  });

  it('puts a task that cannot run yet back, due later, the attempt not counted', async () => {
    await queue('t1');
    await worker.poll();
    await eventually(() => expect(handler.contexts.size).toBe(1));
    handler.finish('t1', { status: 'later', delaySeconds: 30, reason: 'the recording is still live' });
    await eventually(() => expect(task('t1')).toMatchObject({ status: 'queued', attempts: 0, error: 'the recording is still live' }));
    expect(task('t1').leaseExpiresAt!.getTime()).toBeGreaterThan(tasks.now + 29_000);
  });

  it('retries a failed attempt with a back-off, then gives up through the handler and ends errored', async () => {
    await queue('t1');
    for (let attempt = 1; attempt <= 3; attempt++) {
      tasks.now += 120_000;
      await worker.poll();
      await eventually(() => expect(handler.contexts.get('t1')?.attempt).toBe(attempt));
      handler.fail('t1', new Error(`ffmpeg failed ${attempt}`));
      await eventually(() => expect(task('t1').status).not.toBe('running'));
    }
    expect(task('t1')).toMatchObject({ status: 'errored', error: 'ffmpeg failed 3', attempts: 3 });
    expect(handler.givenUp).toEqual([['t1', 'ffmpeg failed 3']]);
  });

  it('does not count an attempt that failed to reach the assets service, and gives up at once when it refuses', async () => {
    await queue('t1');
    await worker.poll();
    await eventually(() => expect(handler.contexts.size).toBe(1));
    handler.fail('t1', grpcError(GrpcStatus.UNAVAILABLE, 'connect ECONNREFUSED'));
    await eventually(() => expect(task('t1')).toMatchObject({ status: 'queued', attempts: 0 }));
    expect(task('t1').leaseExpiresAt!.getTime()).toBe(tasks.now + TASK_UNREACHABLE_RETRY_SECONDS * 1000);
    tasks.now += 10_000;
    handler.contexts.clear();
    await worker.poll();
    await eventually(() => expect(handler.contexts.get('t1')?.attempt).toBe(1));
    handler.fail('t1', grpcError(GrpcStatus.FAILED_PRECONDITION, 'Track is deleted'));
    await eventually(() => expect(task('t1').status).toBe('errored'));
    expect(handler.givenUp).toEqual([['t1', 'Track is deleted']]);
  });

  it('keeps a task whose giving up cannot reach the assets service, to give up again later', async () => {
    await queue('t1');
    tasks.rows.get('task-t1')!.attempts = 3; // a fourth claim: the workers kept dying
    handler.giveUpError = grpcError(GrpcStatus.UNAVAILABLE, 'down');
    await worker.poll();
    await eventually(() => expect(task('t1')).toMatchObject({ status: 'queued', attempts: 4 }));
    expect(handler.run).not.toHaveBeenCalled();
  });

  it('stops the run of a cancelled task without touching it, and hands its tasks back at shutdown uncounted', async () => {
    await queue('t1');
    await queue('t2');
    await worker.poll();
    await eventually(() => expect(handler.contexts.size).toBe(2));
    worker.stop(await tasks.cancel({ assetId: 'a1', kind: 'text_track', target: 't1' }));
    await eventually(() => expect(worker.runningTaskIds()).toEqual(['task-t2']));
    expect(task('t1').status).toBe('cancelled');
    await worker.onModuleDestroy();
    expect(task('t2')).toMatchObject({ status: 'queued', attempts: 0 });
    await worker.poll();
    expect(worker.runningTaskIds()).toEqual([]);
  });

  it('ends a task of a kind no handler runs as errored', async () => {
    await tasks.enqueue('odd', { assetId: 'a1', kind: 'unknown_kind', target: '' }, false);
    await worker.poll();
    await eventually(() => expect(tasks.rows.get('odd')).toMatchObject({ status: 'errored', error: 'no handler for tasks of kind unknown_kind' }));
  });
});

describe('TaskTriggersConsumer', () => {
  const event = <T extends EventType>(type: T, data: EventData<T>) => testEvent(type, data) as RegisteredEvent;
  const track = (id: string, type: 'text' | 'audio', assetId = 'a1') => ({ id, type, status: 'preparing' as const, asset_id: assetId });

  function consumer() {
    const tasks = new InMemoryTasks();
    const worker = { nudge: jest.fn(), stop: jest.fn() };
    const handler = new ControlledHandler();
    const bus = { subscribe: jest.fn() };
    const c = new TaskTriggersConsumer(bus as never, [handler], tasks, fakeProcessedEvents(), worker);
    return { c, tasks, worker };
  }

  it('reads the handlers’ trigger types and video.asset.deleted', () => {
    expect(consumer().c.types.sort()).toEqual(['video.asset.deleted', 'video.asset.track.created', 'video.asset.track.errored']);
  });

  it('queues the tasks an event asks for once, however often it is delivered, and wakes the worker', async () => {
    const { c, tasks, worker } = consumer();
    const created = event('video.asset.track.created', track('t1', 'text'));
    await c.handle(created);
    await c.handle(created);
    await c.handle(event('video.asset.track.created', track('t2', 'audio')));
    expect([...tasks.rows.values()].map((t) => [t.assetId, t.kind, t.target, t.status])).toEqual([['a1', 'text_track', 't1', 'queued']]);
    expect(worker.nudge).toHaveBeenCalledTimes(1);
  });

  it('cancels a target’s task, and every task of a deleted asset, stopping runs in this process', async () => {
    const { c, tasks, worker } = consumer();
    await c.handle(event('video.asset.track.created', track('t1', 'text')));
    await c.handle(event('video.asset.track.created', track('t2', 'text')));
    await c.handle(event('video.asset.track.created', track('t3', 'text', 'other-asset')));
    await c.handle(event('video.asset.track.errored', { ...track('t1', 'text'), status: 'errored' }));
    expect(worker.stop).toHaveBeenLastCalledWith([expect.objectContaining({ target: 't1', status: 'cancelled' })]);
    await c.handle(event('video.asset.deleted', assetBody('a1')));
    expect(worker.stop).toHaveBeenLastCalledWith([expect.objectContaining({ target: 't2', status: 'cancelled' })]);
    expect([...tasks.rows.values()].map((t) => [t.target, t.status])).toEqual([
      ['t1', 'cancelled'],
      ['t2', 'cancelled'],
      ['t3', 'queued'],
    ]);
  });
});
