import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig, PlatformConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { DomainError, ErrorCode } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { createObjectStore, FsObjectStore, ObjectStore, ResumableWriter } from '@platform/storage';
import { createPgliteDatabase, createTestDatabase, rejection, tamperedAt } from '@platform/testing';
import { DataSource, MigrationInterface } from 'typeorm';
import { UploadCompletion } from './completion/upload-completion.service';
import { UploadSweeper } from './completion/upload-sweeper';
import { uploadsDatabase } from './database-options';
import { FakeAssets } from './testing/fake-assets';
import { ManualClock } from './testing/manual-clock';
import { ChunkReceiver, CLAIM_SECONDS, claimHolder, PutOutcome } from './upload-host/chunk-receiver.service';
import { parseContentRange } from './upload-host/content-range';
import { UploadHostError } from './upload-host/upload-host-error';
import { UploadRepository } from './uploads/upload.repository';
import { UploadsService } from './uploads/uploads.service';

jest.setTimeout(60_000);

interface OutboxRow {
  payload: { type: string; object: { type: string; id: string }; data: Record<string, unknown> };
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** The production adapter as the config chooses it (16 MiB parts: the 7 MiB case is one part plus pending bytes). */
function s3Store(): ObjectStore & ResumableWriter {
  const { TEST_S3_ENDPOINT: endpoint, TEST_S3_ACCESS_KEY: accessKey, TEST_S3_SECRET_KEY: secretKey } = process.env;
  if (!endpoint || !accessKey || !secretKey) throw new Error('TEST_S3_ENDPOINT, TEST_S3_ACCESS_KEY and TEST_S3_SECRET_KEY must be set (scripts/infra/s3.sh)');
  return createObjectStore(loadConfig({ S3_ENDPOINT: endpoint, S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey, S3_BUCKET: `uploads-int-${Date.now()}` }));
}

/** The uploads service against a real Postgres, with each store it runs on (filesystem, and S3 through S3Proxy). */
type Database = { url: string; drop(): Promise<void> };
const fsStore = (dataDir: string) => new FsObjectStore(path.join(dataDir, 'objects'));

/** Postgres with each store; and PGlite, whose one session deadlocks any read made outside an open transaction. */
describe.each([
  ['Postgres, filesystem store', () => createTestDatabase('uploads'), fsStore],
  ['Postgres, S3 store', () => createTestDatabase('uploads'), () => s3Store()],
  ['PGlite (one shared session), filesystem store', () => createPgliteDatabase(), fsStore],
])('uploads on %s', (_name, startDatabase: () => Promise<Database>, makeStore: (dataDir: string) => ObjectStore & ResumableWriter) => {
  let database: Database;
  let config: PlatformConfig;
  let dataSource: DataSource;
  let dataDir: string;
  let store: ObjectStore & ResumableWriter;
  let repository: UploadRepository;
  let fakeAssets: FakeAssets;
  let clock: ManualClock;
  let service: UploadsService;
  let completion: UploadCompletion;
  let receiver: ChunkReceiver;
  let sweeper: UploadSweeper;

  const events = async (id: string): Promise<OutboxRow['payload'][]> =>
    (await dataSource.query<OutboxRow[]>('SELECT "payload" FROM "uploads"."outbox" WHERE "key" = $1 ORDER BY "id"', [id])).map((r) => r.payload);

  const signatureOf = (url: string) => new URL(url).searchParams.get('signature') ?? undefined;

  /** One PUT as the upload host gets it. */
  const put = (url: string, contentRange: string | undefined, bytes: Buffer, contentLength?: number): Promise<PutOutcome> =>
    receiver.put({
      uploadId: new URL(url).pathname.split('/').pop()!,
      signature: signatureOf(url),
      range: parseContentRange(contentRange),
      contentLength,
      body: Readable.from(bytes.length > 0 ? [bytes.subarray(0, Math.ceil(bytes.length / 2)), bytes.subarray(Math.ceil(bytes.length / 2))] : []),
    });

  const refusal = async (promise: Promise<unknown>): Promise<UploadHostError> => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof UploadHostError)) throw new Error(`expected an UploadHostError, got ${String(err)}`);
    return err;
  };

  /** Sends the file in chunks of the given sizes; returns each outcome. */
  async function sendChunks(url: string, file: Buffer, sizes: number[]): Promise<PutOutcome[]> {
    const outcomes: PutOutcome[] = [];
    let start = 0;
    for (const size of sizes) {
      const end = Math.min(start + size, file.length) - 1;
      outcomes.push(await put(url, `bytes ${start}-${end}/${file.length}`, file.subarray(start, end + 1)));
      start = end + 1;
    }
    return outcomes;
  }

  beforeAll(async () => {
    database = await startDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-int-'));
    config = {
      ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', UPLOAD_BASE_URL: 'https://upload.test' }),
      databaseUrl: database.url,
      databasePoolSize: 4,
    };
    dataSource = await openDatabase(config, uploadsDatabase);
    store = makeStore(dataDir);
  });

  beforeEach(() => {
    const unitOfWork = new UnitOfWork(dataSource, uploadsDatabase.schema, { nudge: () => undefined });
    repository = new UploadRepository(dataSource);
    fakeAssets = new FakeAssets();
    clock = new ManualClock(new Date());
    service = new UploadsService(repository, unitOfWork, fakeAssets, store, config, clock);
    completion = new UploadCompletion(repository, unitOfWork, store, fakeAssets, config, clock);
    receiver = new ChunkReceiver(repository, unitOfWork, store, completion, config, clock);
    sweeper = new UploadSweeper(repository, unitOfWork, service, completion, config, clock);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
    if (!(store instanceof FsObjectStore)) await store.deletePrefix('');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates once, and again without change', async () => {
    const second = await openDatabase(config, uploadsDatabase);
    try {
      expect(await second.showMigrations()).toBe(false);
      const runner = second.createQueryRunner();
      try {
        for (const Migration of uploadsDatabase.migrations as Array<new () => MigrationInterface>) await new Migration().up(runner);
      } finally {
        await runner.release();
      }
    } finally {
      await second.destroy();
    }
  });

  it('creates a waiting upload with the defaults, a signed URL and video.upload.created', async () => {
    const upload = await service.create({
      new_asset_settings: { input: [], static_renditions: [], playback_policy: ['public'], passthrough: 'p' },
      cors_origin: 'https://app.example.com',
    });
    expect(upload).toMatchObject({ status: 'waiting', timeout: 3600, cors_origin: 'https://app.example.com', test: false });
    expect(upload.url).toMatch(new RegExp(`^https://upload\\.test/upload/${upload.id}\\?signature=[A-Za-z0-9_-]{43}$`));
    expect(fakeAssets.checked).toEqual([
      expect.objectContaining({ upload_id: upload.id, ingest_type: 'on_demand_direct_upload', playback_policy: ['public'] }),
    ]);
    expect(await events(upload.id)).toEqual([
      {
        ...((await events(upload.id))[0] as object),
        type: 'video.upload.created',
        object: { type: 'upload', id: upload.id },
        data: {
          id: upload.id,
          status: 'waiting',
          timeout: 3600,
          cors_origin: 'https://app.example.com',
          url: upload.url,
          new_asset_settings: { playback_policies: ['public'], passthrough: 'p' },
        },
      },
    ]);
    expect(await service.get(upload.id)).toEqual(upload);
    expect((await service.list({ limit: 100, page: 1 })).items.map((u) => u.id)).toContain(upload.id);
  });

  it.each([
    [{ timeout: 59 }, 'timeout: must be an integer from 60 to 604800 (seconds)'],
    [{ timeout: 604_801 }, 'timeout: must be an integer from 60 to 604800 (seconds)'],
    [{ cors_origin: 'https://app.example.com/page' }, 'cors_origin: must be "*" or an origin such as "https://app.example.com"'],
  ])('refuses %j, storing nothing', async (request, message) => {
    const before = (await service.list({ limit: 100, page: 1 })).items.length;
    const error = await rejection(service.create(request));
    expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
    expect(error.messages).toEqual([message]);
    expect((await service.list({ limit: 100, page: 1 })).items.length).toBe(before);
  });

  it('refuses new_asset_settings the assets service refuses, naming them under new_asset_settings', async () => {
    fakeAssets.refuseSettings = DomainError.invalid('max_resolution_tier: must be one of "1080p", "1440p", "2160p"');
    const error = await rejection(
      service.create({ new_asset_settings: { input: [], static_renditions: [], playback_policy: [], max_resolution_tier: '720p' } }),
    );
    expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
    expect(error.messages).toEqual(['new_asset_settings.max_resolution_tier: must be one of "1080p", "1440p", "2160p"']);
  });

  it('takes chunks with 308 and Range until the last, then stores the file and creates the asset', async () => {
    const upload = await service.create({ new_asset_settings: { input: [], static_renditions: [], playback_policy: ['signed'] }, test: true });
    const file = randomBytes(7 * MiB + 123);
    const outcomes = await sendChunks(upload.url, file, [256 * KiB, 3 * MiB, 256 * KiB, 6 * MiB]);
    expect(outcomes.slice(0, 3)).toEqual([
      { status: 308, received: 256 * KiB },
      { status: 308, received: 256 * KiB + 3 * MiB },
      { status: 308, received: 512 * KiB + 3 * MiB },
    ]);
    expect(outcomes[3]).toMatchObject({ status: 200, upload: { status: 'asset_created', assetId: `asset-of-${upload.id}` } });

    expect((await store.getBuffer(`uploads/${upload.id}/source`)).equals(file)).toBe(true);
    expect(fakeAssets.created).toEqual([
      expect.objectContaining({
        input: [{ object_key: `uploads/${upload.id}/source`, generated_subtitles: [] }],
        playback_policy: ['signed'],
        upload_id: upload.id,
        ingest_type: 'on_demand_direct_upload',
        test: true,
      }),
    ]);
    const got = await service.get(upload.id);
    expect(got).toMatchObject({ status: 'asset_created', asset_id: `asset-of-${upload.id}` });
    expect((await events(upload.id)).map((e) => e.type)).toEqual(['video.upload.created', 'video.upload.asset_created']);
    expect((await events(upload.id))[1].data).toMatchObject({ status: 'asset_created', asset_id: `asset-of-${upload.id}`, test: true });

    // the last chunk sent again (its answer was lost) is answered 200; any other chunk is refused
    expect(await put(upload.url, `bytes ${file.length - 10}-${file.length - 1}/${file.length}`, file.subarray(file.length - 10))).toMatchObject({
      status: 200,
    });
    expect((await refusal(put(upload.url, `bytes 0-9/${file.length}`, file.subarray(0, 10)))).status).toBe(410);
    expect(fakeAssets.assetCount).toBe(1);
  });

  it('takes the whole file in one PUT, with or without Content-Length', async () => {
    for (const withLength of [true, false]) {
      const upload = await service.create({});
      const file = randomBytes(300 * KiB);
      expect(await put(upload.url, undefined, file, withLength ? file.length : undefined)).toMatchObject({ status: 200, upload: { status: 'asset_created' } });
      expect((await store.getBuffer(`uploads/${upload.id}/source`)).equals(file)).toBe(true);
    }
  });

  it('answers a status query, skips bytes sent twice, and refuses a gap naming the byte to resume from', async () => {
    const upload = await service.create({});
    const file = randomBytes(600 * KiB);
    expect(await put(upload.url, `bytes */${file.length}`, Buffer.alloc(0))).toEqual({ status: 308, received: 0 });
    await put(upload.url, `bytes 0-${200 * KiB - 1}/${file.length}`, file.subarray(0, 200 * KiB));
    // the same chunk again, then one overlapping what is held
    expect(await put(upload.url, `bytes 0-${200 * KiB - 1}/${file.length}`, file.subarray(0, 200 * KiB))).toEqual({ status: 308, received: 200 * KiB });
    expect(await put(upload.url, `bytes ${100 * KiB}-${300 * KiB - 1}/${file.length}`, file.subarray(100 * KiB, 300 * KiB))).toEqual({
      status: 308,
      received: 300 * KiB,
    });
    const gap = await refusal(put(upload.url, `bytes ${400 * KiB}-${file.length - 1}/${file.length}`, file.subarray(400 * KiB)));
    expect(gap).toMatchObject({ status: 409, headers: { range: `bytes=0-${300 * KiB - 1}` } });
    expect(await put(upload.url, `bytes */${file.length}`, Buffer.alloc(0))).toEqual({ status: 308, received: 300 * KiB });
    expect(await put(upload.url, `bytes ${300 * KiB}-${file.length - 1}/${file.length}`, file.subarray(300 * KiB))).toMatchObject({ status: 200 });
    expect((await store.getBuffer(`uploads/${upload.id}/source`)).equals(file)).toBe(true);
  });

  it('keeps nothing of a request whose body is shorter than its range, and takes it again', async () => {
    const upload = await service.create({});
    const file = randomBytes(400 * KiB);
    await put(upload.url, `bytes 0-${100 * KiB - 1}/${file.length}`, file.subarray(0, 100 * KiB));
    const short = await refusal(put(upload.url, `bytes ${100 * KiB}-${file.length - 1}/${file.length}`, file.subarray(100 * KiB, 200 * KiB)));
    expect(short).toMatchObject({ status: 400, message: `The body ended after ${100 * KiB} of the ${300 * KiB} bytes its range or length says` });
    expect(await put(upload.url, `bytes */${file.length}`, Buffer.alloc(0))).toEqual({ status: 308, received: 100 * KiB });
    expect(await put(upload.url, `bytes ${100 * KiB}-${file.length - 1}/${file.length}`, file.subarray(100 * KiB))).toMatchObject({ status: 200 });
    expect((await store.getBuffer(`uploads/${upload.id}/source`)).equals(file)).toBe(true);
  });

  it('refuses a wrong or missing signature (403), an unknown upload (404), a changed size (400) and a file over the limit (413)', async () => {
    const upload = await service.create({});
    const url = new URL(upload.url);
    const signature = signatureOf(upload.url)!;
    // one character changed (never to itself)
    const tampered = `${url.origin}${url.pathname}?signature=${tamperedAt(signature, 0)}`;
    expect((await refusal(put(tampered, undefined, Buffer.from('x'), 1))).status).toBe(403);
    expect((await refusal(put(`${url.origin}${url.pathname}`, undefined, Buffer.from('x'), 1))).status).toBe(403);
    expect((await refusal(put(`${url.origin}/upload/nope?signature=x`, undefined, Buffer.from('x'), 1))).status).toBe(404);
    await put(upload.url, 'bytes 0-9/100', Buffer.alloc(10));
    expect((await refusal(put(upload.url, 'bytes 10-19/200', Buffer.alloc(10)))).status).toBe(400);
    expect((await refusal(put(upload.url, `bytes 10-19/${config.media.inputMaxBytes + 1}`, Buffer.alloc(10)))).status).toBe(413);
    expect(await put(upload.url, 'bytes */100', Buffer.alloc(0))).toEqual({ status: 308, received: 10 });
  });

  it('lets one request at a time write an upload: a second writer gets 503 with Retry-After (UpChunk retries it), and a claim whose holder died lapses within seconds', async () => {
    const upload = await service.create({});
    const id = upload.id;
    // what a request holds when its process is killed mid-chunk: a claim nobody renews any more
    expect(await repository.claim(id, 'dead-request', clock.now(), new Date(clock.now().getTime() + CLAIM_SECONDS * 1000))).not.toBeNull();
    const busy = await refusal(put(upload.url, 'bytes 0-9/100', Buffer.alloc(10)));
    expect(busy).toMatchObject({ status: 503, type: 'service_unavailable', message: expect.stringMatching(/Another request is writing/) });
    expect(busy.headers['retry-after']).toBe(String(CLAIM_SECONDS));
    expect(CLAIM_SECONDS).toBeLessThanOrEqual(5); // UpChunk's default: 5 attempts, 1 s apart
    clock.advance(CLAIM_SECONDS * 1000 + 1);
    expect(await put(upload.url, 'bytes 0-9/100', Buffer.alloc(10))).toEqual({ status: 308, received: 10 });
  });

  it('drops, at start, the claims a previous process of this host left (a restart after kill -9), and no other host’s', async () => {
    const mine = await service.create({});
    const theirs = await service.create({});
    const until = new Date(clock.now().getTime() + CLAIM_SECONDS * 1000);
    expect(await repository.claim(mine.id, `${claimHolder()}request-cut-by-a-crash`, clock.now(), until)).not.toBeNull();
    expect(await repository.claim(theirs.id, 'another-pod/live-request', clock.now(), until)).not.toBeNull();

    await receiver.onApplicationBootstrap(); // what a restarted upload host does before it listens
    expect(await put(mine.url, 'bytes 0-9/100', Buffer.alloc(10))).toEqual({ status: 308, received: 10 });
    expect(await refusal(put(theirs.url, 'bytes 0-9/100', Buffer.alloc(10)))).toMatchObject({ status: 503 });
  });

  it('cancels only a waiting upload: its bytes are dropped, its URL refused (410), no asset is made', async () => {
    const upload = await service.create({});
    await put(upload.url, 'bytes 0-99/1000', Buffer.alloc(100, 1));
    const cancelled = await service.cancel(upload.id);
    expect(cancelled).toMatchObject({ id: upload.id, status: 'cancelled' });
    expect((await events(upload.id)).map((e) => e.type)).toEqual(['video.upload.created', 'video.upload.cancelled']);
    expect(await refusal(put(upload.url, 'bytes 100-999/1000', Buffer.alloc(900)))).toMatchObject({ status: 410, message: 'The upload was cancelled' });
    expect(fakeAssets.created).toEqual([]);
    const again = await rejection(service.cancel(upload.id));
    expect(again.code).toBe(ErrorCode.PRECONDITION_FAILED);
    expect(again.messages).toEqual(['Only a waiting upload can be cancelled; this one is cancelled']);

    const done = await service.create({});
    await put(done.url, undefined, Buffer.alloc(10), 10);
    expect((await rejection(service.cancel(done.id))).code).toBe(ErrorCode.PRECONDITION_FAILED);
    expect((await rejection(service.cancel('nope'))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('times out a waiting upload after its timeout (no event), and refuses its URL', async () => {
    const upload = await service.create({ timeout: 60 });
    await put(upload.url, 'bytes 0-9/100', Buffer.alloc(10));
    clock.advance(59_000);
    await sweeper.sweep();
    expect((await service.get(upload.id)).status).toBe('waiting');
    clock.advance(2_000);
    expect(await refusal(put(upload.url, 'bytes 10-19/100', Buffer.alloc(10)))).toMatchObject({ status: 410, message: 'The upload URL has expired' });
    await sweeper.sweep();
    expect((await service.get(upload.id)).status).toBe('timed_out');
    expect((await events(upload.id)).map((e) => e.type)).toEqual(['video.upload.created']);
    expect(fakeAssets.created).toEqual([]);
  });

  it('finishes a completion the assets service was down for, once, from the sweeper', async () => {
    const upload = await service.create({});
    fakeAssets.failCreate = Object.assign(new Error('connect ECONNREFUSED'), { code: 14 });
    expect(await put(upload.url, undefined, Buffer.alloc(1000, 2), 1000)).toMatchObject({ status: 200, upload: { status: 'waiting' } });
    expect((await rejection(service.cancel(upload.id))).messages).toEqual([
      'The upload is complete and its asset is being created; it can no longer be cancelled',
    ]);
    fakeAssets.failCreate = undefined;
    await sweeper.sweep(); // too soon: the request's own attempt may still be running
    expect((await service.get(upload.id)).status).toBe('waiting');
    clock.advance(20_000);
    await sweeper.sweep();
    await sweeper.sweep();
    expect(await service.get(upload.id)).toMatchObject({ status: 'asset_created', asset_id: `asset-of-${upload.id}` });
    expect((await events(upload.id)).map((e) => e.type)).toEqual(['video.upload.created', 'video.upload.asset_created']);
  });

  it('errors the upload when the assets service refuses its asset, or when the asset errors', async () => {
    const refused = await service.create({});
    fakeAssets.failCreate = DomainError.invalid('input[0].object_key: bad');
    expect(await put(refused.url, undefined, Buffer.alloc(10), 10)).toMatchObject({ status: 200, upload: { status: 'errored' } });
    expect(await service.get(refused.id)).toMatchObject({ status: 'errored', error: { type: 'asset_creation_failed', message: 'input[0].object_key: bad' } });
    expect((await service.get(refused.id)).asset_id).toBeUndefined();
    fakeAssets.failCreate = undefined;

    const upload = await service.create({});
    await put(upload.url, undefined, Buffer.alloc(10), 10);
    const handled = (eventId: string) => ({ consumer: 'uploads', eventId: `${eventId}-${upload.id}` });
    await completion.assetErrored(handled('other'), upload.id, 'some-other-asset', { type: 'invalid_input', message: 'x' });
    expect((await service.get(upload.id)).status).toBe('asset_created');
    await completion.assetErrored(handled('first'), upload.id, `asset-of-${upload.id}`, {
      type: 'invalid_input',
      message: 'The input file could not be read as media.',
    });
    await completion.assetErrored(handled('second'), upload.id, `asset-of-${upload.id}`, { type: 'invalid_input', message: 'again' });
    expect(await service.get(upload.id)).toMatchObject({
      status: 'errored',
      error: { type: 'invalid_input', message: 'The input file could not be read as media.' },
    });
    expect((await events(upload.id)).map((e) => e.type)).toEqual(['video.upload.created', 'video.upload.asset_created', 'video.upload.errored']);
    const processed = await dataSource.query<Array<{ consumer: string; event_id: string }>>(
      `SELECT "consumer", "event_id" FROM "uploads"."processed_events" WHERE "event_id" LIKE $1 ORDER BY "event_id"`,
      [`%-${upload.id}`],
    );
    expect(processed).toEqual(['first', 'other', 'second'].map((e) => ({ consumer: 'uploads', event_id: `${e}-${upload.id}` })));

    // the same event again, even were the upload `asset_created` once more, changes nothing: it was handled
    await dataSource.query(`UPDATE "uploads"."uploads" SET "status" = 'asset_created', "error" = NULL WHERE "id" = $1`, [upload.id]);
    await completion.assetErrored(handled('first'), upload.id, `asset-of-${upload.id}`, { type: 'invalid_input', message: 'redelivered' });
    expect((await service.get(upload.id)).status).toBe('asset_created');
    expect(await events(upload.id)).toHaveLength(3);
  });

  it('records nothing when the change fails, so the redelivered event is handled then', async () => {
    const upload = await service.create({});
    await put(upload.url, undefined, Buffer.alloc(10), 10);
    const handled = { consumer: 'uploads', eventId: `failing-${upload.id}` };
    const update = jest.spyOn(UploadRepository.prototype, 'update').mockRejectedValueOnce(new Error('database unavailable'));
    await expect(completion.assetErrored(handled, upload.id, `asset-of-${upload.id}`, { type: 'invalid_input', message: 'm' })).rejects.toThrow(
      'database unavailable',
    );
    update.mockRestore();
    expect(await dataSource.query<unknown[]>(`SELECT count(*)::int AS n FROM "uploads"."processed_events" WHERE "event_id" = $1`, [handled.eventId])).toEqual([
      { n: 0 },
    ]);
    await completion.assetErrored(handled, upload.id, `asset-of-${upload.id}`, { type: 'invalid_input', message: 'm' });
    expect((await service.get(upload.id)).status).toBe('errored');
  });

  it('lists newest first by whole pages', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push((await service.create({ cors_origin: '*' })).id);
      clock.advance(1000);
    }
    const page1 = (await service.list({ limit: 2, page: 1 })).items.map((u) => u.id);
    const page2 = (await service.list({ limit: 2, page: 2 })).items.map((u) => u.id);
    expect(page1).toEqual([made[2], made[1]]);
    expect(page2[0]).toBe(made[0]);
  });

  it(`leaves no partial state when a request's body breaks`, async () => {
    const upload = await service.create({});
    const body = Readable.from(
      (async function* () {
        yield randomBytes(64 * KiB);
        throw new Error('socket hang up');
      })(),
    );
    await expect(
      receiver.put({ uploadId: upload.id, signature: signatureOf(upload.url), range: parseContentRange('bytes 0-99999/200000'), body }),
    ).rejects.toThrow('socket hang up');
    expect(await put(upload.url, 'bytes */200000', Buffer.alloc(0))).toEqual({ status: 308, received: 0 });
    const file = randomBytes(200000);
    await sendChunks(upload.url, file, [100000, 100000]);
    expect((await store.getBuffer(`uploads/${upload.id}/source`)).equals(file)).toBe(true);
  });
});
