import { loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { newId } from '@platform/ids';
import { DataSource, MigrationInterface } from 'typeorm';
import { transcoderDatabase } from '../database-options';
import { JobRepository } from './job.repository';
import { createPgliteDatabase, createTestDatabase } from '@platform/testing';

interface Backend {
  url: string;
  drop(): Promise<void>;
}

const backends: Array<[string, () => Promise<Backend>]> = [
  ['Postgres', () => createTestDatabase('transcoder')],
  ['PGlite (one shared session)', () => createPgliteDatabase()],
];

describe.each(backends)('JobRepository on %s', (_name, start) => {
  let backend: Backend;
  let config: PlatformConfig;
  /** Two workers, each with its own connection pool, as two processes would have. */
  let a: DataSource;
  let b: DataSource;
  let jobsA: JobRepository;
  let jobsB: JobRepository;

  beforeAll(async () => {
    backend = await start();
    config = { ...loadConfig({}), databaseUrl: backend.url, databasePoolSize: 4 };
    a = await openDatabase(config, transcoderDatabase);
    b = await openDatabase(config, transcoderDatabase);
    jobsA = new JobRepository(a);
    jobsB = new JobRepository(b);
  }, 60_000);

  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
    await backend?.drop();
  });

  const expireLease = (id: string) => a.query(`UPDATE "transcoder"."jobs" SET "lease_expires_at" = now() - interval '1 second' WHERE "id" = $1`, [id]);
  /** Finishes every open job, so the next claim can only find what the test adds. */
  const drain = async () => {
    for (const phase of ['ingest', 'ladder'] as const) {
      for (let job = await jobsA.claim('drain', 60, phase); job; job = await jobsA.claim('drain', 60, phase)) await jobsA.finish(job.id, 'drain', 'done', null);
    }
  };

  it('creates its table once, however often the migrations run', async () => {
    const runner = a.createQueryRunner();
    try {
      for (const Migration of transcoderDatabase.migrations as Array<new () => MigrationInterface>) await new Migration().up(runner);
    } finally {
      await runner.release();
    }
    const tables = await a.query<
      Array<{
        table_name: string;
      }>
    >(`SELECT "table_name" FROM information_schema.tables WHERE "table_schema" = 'transcoder' ORDER BY 1`);
    expect(tables.map((t) => t.table_name)).toEqual(['jobs', 'migrations', 'processed_events', 'tasks']);
  });

  it('queues one job per asset', async () => {
    const asset = newId();
    expect(await jobsA.enqueue(newId(), asset)).toBe(true);
    expect(await jobsB.enqueue(newId(), asset)).toBe(false);
    const job = await jobsA.findByAssetId(asset);
    expect(job).toMatchObject({
      assetId: asset,
      status: 'queued',
      phase: 'ingest',
      playable: false,
      inputKey: null,
      attempts: 0,
      worker: null,
      leaseExpiresAt: null,
      error: null,
    });
    expect(job!.createdAt).toBeInstanceOf(Date);
  });

  it('counts the open jobs by phase and status (the queue depth metric), leaving out finished ones', async () => {
    await drain();
    expect(await jobsA.openCounts()).toEqual([]);
    for (let n = 0; n < 3; n++) await jobsA.enqueue(newId(), newId());
    const claimed = await jobsB.claim('w1', 60, 'ingest');
    expect(await jobsA.openCounts()).toEqual([
      { phase: 'ingest', status: 'queued', count: 2 },
      { phase: 'ingest', status: 'running', count: 1 },
    ]);
    await jobsB.advanceToLadder(claimed!.id, 'w1', null);
    const done = await jobsA.claim('w2', 60, 'ingest');
    await jobsA.finish(done!.id, 'w2', 'done', null);
    expect(await jobsA.openCounts()).toEqual([
      { phase: 'ingest', status: 'queued', count: 1 },
      { phase: 'ladder', status: 'queued', count: 1 },
    ]);
    await drain();
  });

  it('never gives the same job to two workers claiming at the same time', async () => {
    await drain();
    const ids = Array.from({ length: 12 }, () => newId());
    for (const id of ids) await jobsA.enqueue(id, newId());
    const claimAll = async (jobs: JobRepository, worker: string) => {
      const got: string[] = [];
      for (let job = await jobs.claim(worker, 60, 'ingest'); job; job = await jobs.claim(worker, 60, 'ingest')) got.push(job.id);
      return got;
    };
    const workers = ['A', 'B', 'A2', 'B2'];
    const claimed = await Promise.all(workers.map((w, i) => claimAll(i % 2 ? jobsB : jobsA, w)));
    expect(claimed.flat().sort()).toEqual([...ids].sort()); // each job exactly once
    for (const [i, worker] of workers.entries()) {
      for (const id of claimed[i]) expect(await jobsB.findById(id)).toMatchObject({ status: 'running', worker, attempts: 1 });
    }
  });

  it('never gives the same job to many concurrent claims either', async () => {
    await drain();
    const ids = Array.from({ length: 6 }, () => newId());
    for (const id of ids) await jobsA.enqueue(id, newId());
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? jobsA : jobsB).claim(`w${i}`, 60, 'ingest')));
    const claimed = claims.filter((j) => j !== undefined).map((j) => j.id);
    expect(claimed.sort()).toEqual([...ids].sort());
  });

  it('takes over a job whose lease expired; the old holder can then neither renew, mark, requeue nor finish it', async () => {
    await drain();
    const id = newId();
    await jobsA.enqueue(id, newId());
    expect((await jobsA.claim('A', 60, 'ingest'))?.id).toBe(id);
    expect(await jobsB.claim('B', 60, 'ingest')).toBeUndefined(); // the lease runs
    expect(await jobsA.renew(id, 'A', 60)).toBe(true);
    expect(await jobsA.markPlayable(id, 'A')).toBe(true);

    await expireLease(id);
    const taken = await jobsB.claim('B', 60, 'ingest');
    expect(taken).toMatchObject({ id, status: 'playable', worker: 'B', attempts: 2 }); // it was playable: still is
    expect(taken!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);

    expect(await jobsA.renew(id, 'A', 60)).toBe(false);
    expect(await jobsA.markPlayable(id, 'A')).toBe(false);
    expect(await jobsA.requeue(id, 'A', { error: 'x', delaySeconds: 0, refund: true })).toBe(false);
    expect(await jobsA.finish(id, 'A', 'done', null)).toBe(false);
    expect(await jobsA.findById(id)).toMatchObject({ status: 'playable', worker: 'B', attempts: 2, error: null });

    expect(await jobsB.finish(id, 'B', 'done', null)).toBe(true);
    expect(await jobsA.findById(id)).toMatchObject({ status: 'done', worker: 'B', leaseExpiresAt: null });
    expect(await jobsB.finish(id, 'B', 'errored', 'late')).toBe(false); // ended jobs stay ended
  });

  it('holds a requeued job back until its delay has passed, and can refund the attempt', async () => {
    await drain();
    const id = newId();
    await jobsA.enqueue(id, newId());
    await jobsA.claim('A', 60, 'ingest');
    expect(await jobsA.requeue(id, 'A', { error: 'ffmpeg exited with status 1', delaySeconds: 30, refund: false })).toBe(true);
    expect(await jobsB.claim('B', 60, 'ingest')).toBeUndefined();
    expect(await jobsA.findById(id)).toMatchObject({ status: 'queued', attempts: 1, error: 'ffmpeg exited with status 1' });
    await expireLease(id);
    expect(await jobsB.claim('B', 60, 'ingest')).toMatchObject({ id, attempts: 2, error: 'ffmpeg exited with status 1' });
    expect(await jobsB.requeue(id, 'B', { error: null, delaySeconds: 0, refund: true })).toBe(true);
    expect(await jobsA.findById(id)).toMatchObject({ status: 'queued', attempts: 1, error: 'ffmpeg exited with status 1' });
  });

  it('cancels an open job (the holder then loses it), records a cancelled job for an unknown asset, and leaves ended jobs', async () => {
    await drain();
    const running = newId();
    const assetRunning = newId();
    await jobsA.enqueue(running, assetRunning);
    await jobsA.claim('A', 60, 'ingest');
    expect(await jobsB.cancelAsset(newId(), assetRunning)).toMatchObject({ id: running, status: 'cancelled', worker: 'A', leaseExpiresAt: null });
    expect(await jobsA.renew(running, 'A', 60)).toBe(false);
    expect(await jobsA.finish(running, 'A', 'done', null)).toBe(false);

    const early = newId();
    const assetEarly = newId();
    expect(await jobsB.cancelAsset(early, assetEarly)).toMatchObject({ id: early, assetId: assetEarly, status: 'cancelled', attempts: 0 });
    expect(await jobsA.enqueue(newId(), assetEarly)).toBe(false);
    expect(await jobsA.claim('A', 60, 'ingest')).toBeUndefined();

    expect(await jobsB.cancelAsset(newId(), assetRunning)).toBeUndefined(); // already cancelled
    expect(await jobsA.openIds([running, early])).toEqual(new Set());
  });

  it('hands an ingested job to the ladder phase: claimed only by encode slots, attempts counted afresh, the input key kept', async () => {
    await drain();
    const id = newId();
    await jobsA.enqueue(id, newId());
    expect(await jobsA.claim('A', 60, 'ladder')).toBeUndefined(); // an encode slot never takes an ingest
    await jobsA.claim('A', 60, 'ingest');
    await jobsA.claim('A', 60, 'ingest'); // nothing: held
    expect(await jobsA.markPlayable(id, 'A')).toBe(true);
    expect(await jobsB.advanceToLadder(id, 'B', 'k')).toBe(false); // only the holder
    expect(await jobsA.advanceToLadder(id, 'A', 'assets/x/transcoder/input')).toBe(true);
    expect(await jobsA.findById(id)).toMatchObject({ phase: 'ladder', status: 'queued', attempts: 0, playable: true, leaseExpiresAt: null });
    expect(await jobsB.claim('B', 60, 'ingest')).toBeUndefined();
    expect(await jobsB.claim('B', 60, 'ladder')).toMatchObject({
      id,
      phase: 'ladder',
      status: 'playable',
      worker: 'B',
      attempts: 1,
      inputKey: 'assets/x/transcoder/input',
    });
  });

  it('gives an encode slot the ladders of assets that do not play yet before the older ladders of assets that do', async () => {
    await drain();
    const [older, newer] = [newId(), newId()];
    for (const id of [older, newer]) {
      await jobsA.enqueue(id, newId());
      await new Promise((r) => setTimeout(r, 5));
    }
    for (const id of [older, newer]) {
      const job = await jobsA.claim('A', 60, 'ingest');
      expect(job!.id).toBe(id);
      if (id === older) await jobsA.markPlayable(id, 'A');
      await jobsA.advanceToLadder(id, 'A', null);
    }
    expect((await jobsB.claim('B', 60, 'ladder'))?.id).toBe(newer);
    expect((await jobsB.claim('B', 60, 'ladder'))?.id).toBe(older);
  });

  it('lists newest first and finds a job by id or asset id', async () => {
    const ids = [newId(), newId(), newId()];
    for (const id of ids) {
      await jobsA.enqueue(id, newId());
      // PGlite's clock can give two quick inserts the same now(); equal times are ordered by id
      await new Promise((r) => setTimeout(r, 5));
    }
    const listed = (await jobsB.list(100, 0)).map((j) => j.id);
    expect(listed.indexOf(ids[2])).toBeLessThan(listed.indexOf(ids[1]));
    expect(listed.indexOf(ids[1])).toBeLessThan(listed.indexOf(ids[0]));
    expect((await jobsB.list(1, 0)).map((j) => j.id)).toEqual([listed[0]]);
    expect(await jobsB.openIds([ids[0], 'nope'])).toEqual(new Set([ids[0]]));
  });
});
