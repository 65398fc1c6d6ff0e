import { loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { newId } from '@platform/ids';
import { createPgliteDatabase, createTestDatabase } from '@platform/testing';
import { DataSource } from 'typeorm';
import { transcoderDatabase } from '../database-options';
import { JobRepository } from '../jobs/job.repository';
import { TaskRepository } from './task.repository';

interface Backend {
  url: string;
  drop(): Promise<void>;
}

const backends: Array<[string, () => Promise<Backend>]> = [
  ['Postgres', () => createTestDatabase('transcoder')],
  ['PGlite (one shared session)', () => createPgliteDatabase()],
];

describe.each(backends)('TaskRepository on %s', (_name, start) => {
  let backend: Backend;
  /** Two workers, each with its own connection pool, as two processes would have. */
  let a: DataSource;
  let b: DataSource;
  let tasksA: TaskRepository;
  let tasksB: TaskRepository;
  let jobs: JobRepository;

  beforeAll(async () => {
    backend = await start();
    const config: PlatformConfig = { ...loadConfig({}), databaseUrl: backend.url, databasePoolSize: 4 };
    a = await openDatabase(config, transcoderDatabase);
    b = await openDatabase(config, transcoderDatabase);
    tasksA = new TaskRepository(a);
    tasksB = new TaskRepository(b);
    jobs = new JobRepository(a);
  }, 60_000);

  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
    await backend?.drop();
  });

  /** Ends every open task, so the next claim can only find what the test adds. */
  const drain = async () => {
    for (let t = await tasksA.claim('drain', 60); t; t = await tasksA.claim('drain', 60)) await tasksA.finish(t.id, 'drain', 'done', null);
  };
  const key = (assetId: string, target = 't1') => ({ assetId, kind: 'text_track', target });

  it('queues a task once however often asked while it is open, and again once it has ended', async () => {
    await drain();
    const asset = newId();
    expect(await tasksA.enqueue(newId(), key(asset), false)).toBe(true);
    expect(await tasksB.enqueue(newId(), key(asset), false)).toBe(false);
    const claimed = await tasksA.claim('w1', 60);
    expect(claimed).toMatchObject({ assetId: asset, kind: 'text_track', target: 't1', status: 'running', attempts: 1, worker: 'w1' });
    expect(await tasksA.enqueue(newId(), key(asset), false)).toBe(false); // running: left as it is
    expect(await tasksA.finish(claimed!.id, 'w1', 'done', null)).toBe(true);
    expect(await tasksA.enqueue(newId(), key(asset), false)).toBe(true); // asked again after it ended
    expect(await tasksA.findById(claimed!.id)).toMatchObject({ status: 'queued', attempts: 0, worker: null, error: null });
    expect(await tasksA.listForAsset(asset)).toHaveLength(1);
  });

  it('never gives one task to two claimers', async () => {
    await drain();
    const asset = newId();
    for (let i = 0; i < 6; i++) await tasksA.enqueue(newId(), key(asset, `t${i}`), false);
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? tasksA : tasksB).claim(`w${i}`, 60)));
    const ids = claims.filter((t) => t !== undefined).map((t) => t.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });

  it('holds a task that needs the renditions while its asset has an open job', async () => {
    await drain();
    const asset = newId();
    await jobs.enqueue(newId(), asset);
    await tasksA.enqueue(newId(), key(asset, 'needs-ladder'), true);
    await tasksA.enqueue(newId(), key(asset, 'any-time'), false);
    expect((await tasksA.claim('w1', 60))?.target).toBe('any-time');
    expect(await tasksA.claim('w1', 60)).toBeUndefined();
    const job = await jobs.claim('jw', 60, 'ingest');
    await jobs.finish(job!.id, 'jw', 'done', null);
    expect((await tasksA.claim('w1', 60))?.target).toBe('needs-ladder');
  });

  it('lets only the holding claim renew, requeue or finish; an expired lease is taken over', async () => {
    await drain();
    const asset = newId();
    await tasksA.enqueue(newId(), key(asset), false);
    const task = (await tasksA.claim('first', 60))!;
    expect(await tasksB.renew(task.id, 'other', 60)).toBe(false);
    expect(await tasksB.finish(task.id, 'other', 'done', null)).toBe(false);
    await a.query(`UPDATE "transcoder"."tasks" SET "lease_expires_at" = now() - interval '1 second' WHERE "id" = $1`, [task.id]);
    const taken = (await tasksB.claim('second', 60))!;
    expect(taken).toMatchObject({ id: task.id, worker: 'second', attempts: 2 });
    expect(await tasksA.renew(task.id, 'first', 60)).toBe(false);
    expect(await tasksB.requeue(task.id, 'second', { error: 'later', delaySeconds: 60, refund: true })).toBe(true);
    expect(await tasksA.findById(task.id)).toMatchObject({ status: 'queued', attempts: 1, error: 'later' });
    expect(await tasksA.claim('w', 60)).toBeUndefined(); // not due for a minute
  });

  it('cancels the open tasks of an asset, of a kind, or one target', async () => {
    await drain();
    const asset = newId();
    await tasksA.enqueue(newId(), key(asset, 'x'), false);
    await tasksA.enqueue(newId(), key(asset, 'y'), false);
    await tasksA.enqueue(newId(), { assetId: asset, kind: 'static_renditions', target: '' }, true);
    expect((await tasksA.cancel({ assetId: asset, kind: 'text_track', target: 'x' })).map((t) => t.target)).toEqual(['x']);
    expect((await tasksA.cancel({ assetId: asset, kind: 'text_track' })).map((t) => t.target)).toEqual(['y']);
    expect((await tasksA.cancel({ assetId: asset })).map((t) => t.kind)).toEqual(['static_renditions']);
    expect((await tasksA.listForAsset(asset)).map((t) => t.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(await tasksA.openIds((await tasksA.listForAsset(asset)).map((t) => t.id))).toEqual(new Set());
  });
});
