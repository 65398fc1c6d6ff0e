import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, PlatformConfig } from '@platform/config';
import { eventually, fakeProcessedEvents } from '@platform/testing';
import { JobRepository } from '../jobs/job.repository';
import { JobsService } from '../jobs/jobs.service';
import { JobContext, PipelineOutcome } from '../pipeline/job-context';
import { attemptTempDir, jobTempDir } from '../temp-dirs';
import { FakeAssetProcessing } from '../testing/fake-asset-processing';
import { FakeMediaRunner, fakeMediaTools } from '../testing/fake-media-runner';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { InMemoryStore } from '../testing/in-memory-store';
import { JobAbort } from './job-abort';
import { retryDelaySeconds, SHUTDOWN_GRACE_MS, TranscodeWorker, UNREACHABLE_RETRY_SECONDS } from './transcode-worker';

const ME = 'host:1:aaaaaa';

/** A pipeline whose runs the test ends by hand: `finish(assetId, outcome)` or `fail(assetId, error)`. */
class ControlledPipeline {
  readonly contexts = new Map<string, JobContext>();
  private readonly pending = new Map<string, { resolve: (o: PipelineOutcome) => void; reject: (e: unknown) => void }>();

  run = jest.fn(
    (ctx: JobContext) =>
      new Promise<PipelineOutcome>((resolve, reject) => {
        this.contexts.set(ctx.assetId, ctx);
        this.pending.set(ctx.assetId, { resolve, reject });
        const aborted = () => reject(ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted'));
        if (ctx.signal.aborted) aborted();
        ctx.signal.addEventListener('abort', aborted);
      }),
  );

  finish(assetId: string, outcome: PipelineOutcome = { status: 'done' }): void {
    this.pending.get(assetId)!.resolve(outcome);
  }

  fail(assetId: string, error: Error): void {
    this.pending.get(assetId)!.reject(error);
  }
}

describe('TranscodeWorker', () => {
  beforeAll(() => Logger.overrideLogger(false));
  let dataDir: string;
  let jobs: InMemoryJobs;
  let jobsService: JobsService;
  let pipeline: ControlledPipeline;
  let assets: FakeAssetProcessing;
  let store: InMemoryStore;
  let config: PlatformConfig;
  let worker: TranscodeWorker;

  const makeWorker = (id = ME) => new TranscodeWorker(id, jobs, jobsService, pipeline, assets, store, fakeMediaTools(new FakeMediaRunner()), config);
  const row = (id: string) => jobs.rows.get(id)!;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'worker-'));
    jobs = new InMemoryJobs();
    jobs.now = Date.now();
    jobsService = new JobsService(jobs as unknown as JobRepository, fakeProcessedEvents());
    pipeline = new ControlledPipeline();
    assets = new FakeAssetProcessing();
    store = new InMemoryStore();
    config = {
      ...loadConfig({}),
      dataDir,
      transcoder: { concurrency: 1, ingestConcurrency: 2, taskConcurrency: 1, leaseSeconds: 30, maxAttempts: 3, pollMs: 60_000 },
    };
    worker = makeWorker();
  });
  afterEach(async () => {
    await worker.onModuleDestroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('claims the oldest ingests up to its ingest slots, and the next one as soon as one ends', async () => {
    for (const n of [1, 2, 3]) jobs.add({ id: `j${n}`, assetId: `a${n}` });
    await worker.poll();
    expect(worker.runningJobIds()).toEqual(['j1', 'j2']);
    expect([row('j1'), row('j2'), row('j3')].map((j) => [j.status, j.worker, j.attempts])).toEqual([
      ['running', ME, 1],
      ['running', ME, 1],
      ['queued', null, 0],
    ]);
    expect(row('j1').leaseExpiresAt!.getTime()).toBe(jobs.now + 30_000);

    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    pipeline.finish('a1');
    await eventually(() => expect(worker.runningJobIds()).toEqual(['j2', 'j3']));
    expect(row('j1')).toMatchObject({ status: 'done', worker: ME, leaseExpiresAt: null, error: null });
  });

  it('runs the pipeline in a fresh scratch folder of the attempt and removes it afterwards', async () => {
    jobs.add({ id: 'j1', assetId: 'a1', attempts: 1, status: 'queued' });
    const leftover = join(attemptTempDir(dataDir, 'j1', 1), 'input.mp4');
    mkdirSync(join(leftover, '..'), { recursive: true });
    writeFileSync(leftover, 'old');
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    const ctx = pipeline.contexts.get('a1')!;
    expect(ctx).toMatchObject({ jobId: 'j1', assetId: 'a1', attempt: 2, workDir: attemptTempDir(dataDir, 'j1', 2) });
    expect(readdirSync(jobTempDir(dataDir, 'j1'))).toEqual(['attempt-2']);
    expect(readdirSync(ctx.workDir)).toEqual([]);
    pipeline.finish('a1');
    await eventually(() => expect(row('j1').status).toBe('done'));
    await eventually(() => expect(existsSync(ctx.workDir)).toBe(false));
  });

  it('records the quick rendition as `playable`, then `done`', async () => {
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    await pipeline.contexts.get('a1')!.markPlayable();
    expect(row('j1').status).toBe('playable');
    pipeline.finish('a1');
    await eventually(() => expect(row('j1').status).toBe('done'));
  });

  it('keeps the asset errored by the pipeline as an errored job with its reason', async () => {
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    pipeline.finish('a1', { status: 'errored', error: 'Unable to download input file: HTTP 404' });
    await eventually(() => expect(row('j1')).toMatchObject({ status: 'errored', error: 'Unable to download input file: HTTP 404' }));
  });

  it('puts a failed attempt back in the queue with a back-off, and errors the asset after the last attempt', async () => {
    assets.addAsset('a1');
    jobs.add({ id: 'j1', assetId: 'a1' });
    for (const attempt of [1, 2]) {
      await worker.poll();
      await eventually(() => expect(pipeline.run).toHaveBeenCalledTimes(attempt));
      pipeline.fail('a1', new Error(`ffmpeg exited with status 1 (${attempt})`));
      await eventually(() => expect(worker.runningJobIds()).toEqual([]));
      expect(row('j1')).toMatchObject({ status: 'queued' });
      expect(row('j1')).toMatchObject({ attempts: attempt, error: `ffmpeg exited with status 1 (${attempt})` });
      expect(row('j1').leaseExpiresAt!.getTime()).toBe(jobs.now + retryDelaySeconds(attempt) * 1000);
      await worker.poll();
      expect(worker.runningJobIds()).toEqual([]); // not due yet
      jobs.now += retryDelaySeconds(attempt) * 1000;
    }
    await worker.poll();
    await eventually(() => expect(pipeline.run).toHaveBeenCalledTimes(3));
    pipeline.fail('a1', new Error('ffmpeg exited with status 1 (3)'));
    await eventually(() => expect(row('j1').status).toBe('errored'));
    expect(row('j1')).toMatchObject({ attempts: 3, error: 'ffmpeg exited with status 1 (3)' });
    expect(assets.errored).toEqual([{ assetId: 'a1', errors: { type: 'unknown', messages: ['The input file could not be processed after 3 attempts.'] } }]);
    expect(assets.warnings).toEqual([]);
  });

  it('ends the job of a ready asset whose ladder keeps failing: the asset stays ready, one warning, no more tries', async () => {
    assets.addAsset('a1', { status: 'ready' });
    jobs.add({ id: 'j1', assetId: 'a1', phase: 'ladder', playable: true, attempts: 2 });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    pipeline.fail('a1', new Error('ffmpeg exited with status 1'));
    await eventually(() => expect(row('j1').status).toBe('errored'));
    expect(row('j1')).toMatchObject({ attempts: 3, error: 'ffmpeg exited with status 1', leaseExpiresAt: null });
    expect(assets.errored).toEqual([]);
    expect(assets.specs.get('a1')!.status).toBe('ready');
    expect(assets.warnings).toEqual([
      {
        assetId: 'a1',
        warning: {
          type: 'renditions_failed',
          message:
            'The encoded renditions could not be made, so the asset plays from its source rendition only: 3 attempts failed (ffmpeg exited with status 1)',
        },
      },
    ]);
    jobs.now += 3600_000;
    await worker.poll();
    expect(pipeline.run).toHaveBeenCalledTimes(1);
  });

  it('ends, with a warning, the job of a ready asset whose workers kept dying during its ladder (no endless retries)', async () => {
    assets.addAsset('a1', { status: 'ready' });
    jobs.add({
      id: 'j1',
      assetId: 'a1',
      phase: 'ladder',
      playable: true,
      status: 'playable',
      worker: 'dead:1:x',
      attempts: 3,
      leaseExpiresAt: new Date(jobs.now - 1),
    });
    await worker.poll();
    await eventually(() => expect(row('j1').status).toBe('errored'));
    expect(pipeline.run).not.toHaveBeenCalled();
    expect(assets.warnings.map((w) => w.warning.type)).toEqual(['renditions_failed']);
    expect(assets.errored).toEqual([]);
  });

  it.each([
    ['refuses a change (FAILED_PRECONDITION) of an asset that plays: it stays ready, with a warning', 9, 'ready', 'errored'],
    ['refuses a report (INVALID_ARGUMENT) of an asset that does not play yet: it is errored', 3, 'preparing', 'errored'],
    ['no longer knows the asset (NOT_FOUND)', 5, undefined, 'cancelled'],
  ])('ends the job at once when the assets service %s, instead of retrying it as unreachable', async (_name, code, assetStatus, status) => {
    if (assetStatus) assets.addAsset('a1', { status: assetStatus });
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    pipeline.fail('a1', Object.assign(new Error(`${code} refused: Asset is ready; it cannot become errored`), { code }));
    await eventually(() => expect(row('j1').status).toBe(status));
    expect(row('j1')).toMatchObject({ attempts: 1, leaseExpiresAt: null });
    expect(row('j1').error).toContain('refused by the assets service');
    expect(assets.warnings.map((w) => w.warning.type)).toEqual(assetStatus === 'ready' ? ['renditions_failed'] : []);
    expect(assets.errored).toEqual(
      assetStatus === 'preparing' ? [{ assetId: 'a1', errors: { type: 'unknown', messages: ['The input file could not be processed.'] } }] : [],
    );
    jobs.now += 3600_000;
    await worker.poll();
    expect(pipeline.run).toHaveBeenCalledTimes(1);
  });

  it('ends the job when giving up is itself refused (the asset became ready meanwhile), instead of retrying every minute', async () => {
    assets.addAsset('a1');
    assets.refuse.set('markErrored', Object.assign(new Error('9 FAILED_PRECONDITION: Asset is ready; it cannot become errored'), { code: 9 }));
    jobs.add({ id: 'j1', assetId: 'a1', status: 'running', worker: 'dead:1:x', attempts: 3, leaseExpiresAt: new Date(jobs.now - 1) });
    await worker.poll();
    await eventually(() => expect(row('j1').status).toBe('errored'));
    expect(row('j1').leaseExpiresAt).toBeNull();
    // the ending removes what was kept for the ladder after the row is final
    await eventually(() => expect(worker.runningJobIds()).toEqual([]));
    jobs.now += 3600_000;
    await worker.poll();
    expect(worker.runningJobIds()).toEqual([]);
    expect(row('j1').status).toBe('errored');
  });

  it('hands an ingested job to the ladder phase, which an encode slot claims with the kept input', async () => {
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    expect(pipeline.contexts.get('a1')).toMatchObject({ phase: 'ingest', inputKey: null });
    await pipeline.contexts.get('a1')!.markPlayable();
    pipeline.finish('a1', { status: 'ladder', inputKey: 'assets/a1/transcoder/input' });
    await eventually(() => expect(pipeline.run).toHaveBeenCalledTimes(2));
    expect(pipeline.contexts.get('a1')).toMatchObject({ phase: 'ladder', inputKey: 'assets/a1/transcoder/input', attempt: 1 });
    expect(row('j1')).toMatchObject({ phase: 'ladder', status: 'playable', attempts: 1 });
    pipeline.finish('a1');
    await eventually(() => expect(row('j1').status).toBe('done'));
    // the kept input (and a watermark image, were there one) go when the job ends
    await eventually(() => expect(store.log).toEqual(['delete assets/a1/transcoder/']));
  });

  it('makes a new asset playable while its only encode slot runs a long ladder and an input stalls in an ingest slot', async () => {
    jobs.add({ id: 'ladder', assetId: 'a-long', phase: 'ladder', playable: true });
    jobs.add({ id: 'stalled', assetId: 'a-stalled' });
    jobs.add({ id: 'new', assetId: 'a-new' });
    await worker.poll();
    expect(worker.runningJobIds().sort()).toEqual(['ladder', 'new', 'stalled']);
    // each run reaches the pipeline after its own scratch folder is made: wait for both
    await eventually(() => expect([...pipeline.contexts.keys()].sort()).toEqual(['a-long', 'a-new', 'a-stalled']));
    expect(pipeline.contexts.get('a-new')!.phase).toBe('ingest');
    expect(pipeline.contexts.get('a-long')!.phase).toBe('ladder');
    // the new asset's ingest ends (it plays) while the other two still run; its ladder waits for the encode slot
    pipeline.finish('a-new', { status: 'ladder', inputKey: null });
    await eventually(() => expect(row('new')).toMatchObject({ phase: 'ladder', status: 'queued' }));
    expect(worker.runningJobIds().sort()).toEqual(['ladder', 'stalled']);
  });

  it('gives an encode slot the ladder of an asset that does not play yet before older ladders of assets that do', async () => {
    jobs.add({ id: 'old-ready', assetId: 'a1', phase: 'ladder', playable: true });
    jobs.add({ id: 'new-not-ready', assetId: 'a2', phase: 'ladder', playable: false });
    await worker.poll();
    expect(worker.runningJobIds()).toEqual(['new-not-ready']);
  });

  it('does not count an attempt that failed to reach the assets service', async () => {
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    pipeline.fail('a1', Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }));
    await eventually(() => expect(worker.runningJobIds()).toEqual([]));
    expect(row('j1')).toMatchObject({ status: 'queued', attempts: 0, error: '14 UNAVAILABLE: No connection established' });
    expect(row('j1').leaseExpiresAt!.getTime()).toBe(jobs.now + UNREACHABLE_RETRY_SECONDS * 1000);
    expect(assets.errored).toEqual([]);
  });

  it('errors the asset without running it again when a job was claimed more often than allowed (workers kept dying)', async () => {
    assets.addAsset('a1');
    jobs.add({ id: 'j1', assetId: 'a1', status: 'running', worker: 'dead:1:x', attempts: 3, leaseExpiresAt: new Date(jobs.now - 1) });
    await worker.poll();
    await eventually(() => expect(row('j1').status).toBe('errored'));
    expect(pipeline.run).not.toHaveBeenCalled();
    expect(row('j1')).toMatchObject({ attempts: 4, worker: ME, error: 'the worker stopped during every attempt' });
    expect(assets.errored.map((e) => e.assetId)).toEqual(['a1']);
  });

  it('takes over a job whose holder let its lease expire, never one whose lease runs', async () => {
    jobs.add({ id: 'live', assetId: 'a1', status: 'running', worker: 'other:2:x', attempts: 1, leaseExpiresAt: new Date(jobs.now + 5000) });
    jobs.add({ id: 'dead', assetId: 'a2', status: 'playable', worker: 'other:3:x', attempts: 1, leaseExpiresAt: new Date(jobs.now - 1) });
    await worker.poll();
    expect(worker.runningJobIds()).toEqual(['dead']);
    expect(row('dead')).toMatchObject({ status: 'running', worker: ME, attempts: 2 });
    expect(row('live')).toMatchObject({ worker: 'other:2:x', attempts: 1 });
  });

  it('stops without touching the job once another worker holds it', async () => {
    config.transcoder.leaseSeconds = 0.3; // renewals every 100 ms
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    Object.assign(row('j1'), { worker: 'other:2:x', attempts: 2 }); // taken over after an expiry
    const ctx = pipeline.contexts.get('a1')!;
    await eventually(() => expect(ctx.signal.aborted).toBe(true));
    expect(ctx.signal.reason).toBeInstanceOf(JobAbort);
    expect((ctx.signal.reason as JobAbort).kind).toBe('lease_lost');
    await eventually(() => expect(worker.runningJobIds()).toEqual([]));
    expect(row('j1')).toMatchObject({ status: 'running', worker: 'other:2:x', attempts: 2, error: null });
    expect(store.log).toEqual([]);
  });

  it('cannot finish a job it lost while its last step was running', async () => {
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    Object.assign(row('j1'), { worker: 'other:2:x' });
    pipeline.finish('a1');
    await eventually(() => expect(worker.runningJobIds()).toEqual([]));
    expect(row('j1')).toMatchObject({ status: 'running', worker: 'other:2:x' });
  });

  it('stops a running job whose asset is deleted and removes what it stored', async () => {
    worker.onApplicationBootstrap();
    await jobsService.enqueue('a1', 'created-a1');
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    await jobsService.cancel('a1', 'deleted-a1');
    const ctx = pipeline.contexts.get('a1')!;
    expect((ctx.signal.reason as JobAbort).kind).toBe('cancelled');
    await eventually(() => expect(store.log).toEqual(['delete assets/a1/']));
    expect([...jobs.rows.values()][0].status).toBe('cancelled');
  });

  it('ends the job as cancelled when the asset is gone before it starts, removing its files', async () => {
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true));
    pipeline.finish('a1', { status: 'cancelled' });
    await eventually(() => expect(row('j1').status).toBe('cancelled'));
    expect(store.log).toEqual(['delete assets/a1/']);
  });

  it('gives its jobs back on shutdown, due at once and the interrupted attempt not counted, and claims nothing more', async () => {
    jobs.add({ id: 'j1', assetId: 'a1' });
    jobs.add({ id: 'j2', assetId: 'a2', phase: 'ladder', playable: true, attempts: 1 });
    await worker.poll();
    await eventually(() => expect(pipeline.contexts.size).toBe(2));
    await worker.onModuleDestroy();
    expect([...pipeline.contexts.values()].map((c) => (c.signal.reason as JobAbort).kind)).toEqual(['shutdown', 'shutdown']);
    expect(row('j1')).toMatchObject({ status: 'queued', attempts: 0 });
    expect(row('j2')).toMatchObject({ status: 'queued', attempts: 1, phase: 'ladder' });
    expect(row('j1').leaseExpiresAt!.getTime()).toBe(jobs.now);
    jobs.add({ id: 'j3', assetId: 'a3' });
    await worker.poll();
    expect(worker.runningJobIds()).toEqual([]); // stopped for good
    expect(row('j3').status).toBe('queued');
  });

  it('hands back a job whose claim was on its way when shutdown began, without running it', async () => {
    jobs.add({ id: 'j1', assetId: 'a1' });
    let release!: () => void;
    const claim = jobs.claim.bind(jobs);
    jest.spyOn(jobs, 'claim').mockImplementationOnce(async (...args) => {
      await new Promise<void>((r) => (release = r));
      return claim(...args);
    });
    const polling = worker.poll();
    await eventually(() => expect(release).toBeDefined());
    const stopping = worker.onModuleDestroy();
    release();
    await Promise.all([polling, stopping]);
    expect(pipeline.run).not.toHaveBeenCalled();
    expect(row('j1')).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('hands a job back at shutdown even when its run does not stop within the grace period', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const stuck = { run: jest.fn(() => new Promise<PipelineOutcome>(() => undefined)) }; // ignores its signal
      worker = new TranscodeWorker(ME, jobs, jobsService, stuck, assets, store, fakeMediaTools(new FakeMediaRunner()), config);
      jobs.add({ id: 'j1', assetId: 'a1' });
      await worker.poll();
      const stopping = worker.onModuleDestroy();
      await jest.advanceTimersByTimeAsync(SHUTDOWN_GRACE_MS);
      await stopping;
      expect(row('j1')).toMatchObject({ status: 'queued', attempts: 0 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('starts a job queued in this process at once, without waiting for the next poll', async () => {
    worker.onApplicationBootstrap();
    await eventually(() => expect(jobs.rows.size).toBe(0));
    await jobsService.enqueue('a1', 'created-a1');
    await eventually(() => expect(pipeline.contexts.has('a1')).toBe(true), { timeoutMs: 2000 });
  });

  it('claims nothing while ffmpeg cannot be found', async () => {
    worker = new TranscodeWorker(ME, jobs, jobsService, pipeline, assets, store, { get: () => Promise.reject(new Error('No ffmpeg found')) }, config);
    jobs.add({ id: 'j1', assetId: 'a1' });
    await worker.poll();
    expect(row('j1')).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('removes scratch folders of finished jobs left by a crash, at start', async () => {
    jobs.add({ id: 'over', assetId: 'a1', status: 'done' });
    jobs.add({ id: 'open', assetId: 'a2', status: 'running', worker: 'other:2:x', leaseExpiresAt: new Date(jobs.now + 60_000) });
    for (const id of ['over', 'open', 'unknown']) mkdirSync(attemptTempDir(dataDir, id, 1), { recursive: true });
    worker.onApplicationBootstrap();
    await eventually(() => expect(readdirSync(join(dataDir, 'tmp', 'transcoder'))).toEqual(['open']));
  });
});

describe('retryDelaySeconds', () => {
  it('doubles from 5 s up to 60 s', () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelaySeconds)).toEqual([5, 10, 20, 40, 60, 60]);
  });
});
