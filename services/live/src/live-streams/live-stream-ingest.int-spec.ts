import { loadConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { UnitOfWork } from '@platform/events';
import { createPgliteDatabase, createTestDatabase } from '@platform/testing';
import { DataSource } from 'typeorm';
import { liveDatabase } from '../database-options';
import { FakeAssets } from '../testing/fake-assets';
import { TranscriptionVocabularyRepository } from '../transcription-vocabularies/transcription-vocabulary.repository';
import { TranscriptionVocabulariesService } from '../transcription-vocabularies/transcription-vocabularies.service';
import { INGEST_LEASE_SECONDS, LiveStreamIngest } from './live-stream-ingest.service';
import { LiveStreamRepository } from './live-stream.repository';
import { LiveStreamsService } from './live-streams.service';
import { OutboundPolicy } from './outbound-policy';

jest.setTimeout(30_000);

interface OutboxPayload {
  type: string;
  object: { type: string; id: string };
  data: Record<string, unknown>;
}

const A = 'host-a:1:aaaa';
const B = 'host-b:2:bbbb';
const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

/**
 * The live stream as the ingest drives it (spec 3), with the lease each live process holds on the
 * streams it serves: a process that is gone (killed, or stopped) leaves its streams to be taken over,
 * once, by whichever process gets there first, with the encoder's disconnect emitted once.
 */
describe.each([
  ['Postgres', () => createTestDatabase('live_ingest')],
  ['PGlite (one shared session)', () => createPgliteDatabase()],
])('the ingest’s side of live streams on %s', (_name, start: () => Promise<{ url: string; drop(): Promise<void> }>) => {
  let database: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;
  let service: LiveStreamsService;
  let ingest: LiveStreamIngest;

  const types = async (id: string): Promise<string[]> =>
    (await dataSource.query<Array<{ payload: OutboxPayload }>>(`SELECT "payload" FROM "live"."outbox" WHERE "key" = $1 ORDER BY "id"`, [id])).map(
      (r) => r.payload.type,
    );
  const create = (fields: Record<string, unknown> = {}) =>
    service.create({ playback_policy: [], embedded_subtitles: [], generated_subtitles: [], simulcast_targets: [], ...fields });
  const row = async (id: string) => (await ingest.findForIngest(id))!;

  beforeAll(async () => {
    database = await start();
    dataSource = await openDatabase(loadConfig({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '3' }), liveDatabase);
    const unitOfWork = new UnitOfWork(dataSource, liveDatabase.schema, { nudge: () => undefined });
    const repository = new LiveStreamRepository(dataSource);
    const fakeAssets = new FakeAssets();
    const vocabularies = new TranscriptionVocabulariesService(new TranscriptionVocabularyRepository(dataSource), unitOfWork);
    service = new LiveStreamsService(repository, unitOfWork, fakeAssets, vocabularies, new OutboundPolicy('loopback', 1935));
    ingest = new LiveStreamIngest(repository, unitOfWork);
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('admits a publish only for a known key of a stream that is not disabled, and tracks the session', async () => {
    const stream = await create();
    expect(await ingest.authorizePublish('nope')).toEqual({ refused: 'unknown stream key' });
    const verdict = await ingest.authorizePublish(stream.stream_key);
    expect('stream' in verdict && verdict.stream.id).toBe(stream.id);

    await ingest.markActive(stream.id, A, 'rtmp');
    expect(await service.get(stream.id)).toMatchObject({ status: 'active', active_ingest_protocol: 'rtmp' });
    const started = new Date();
    expect(await ingest.sessionEnd(stream.id, stream.stream_key, started)).toBeUndefined();
    expect(await ingest.sessionEnd(stream.id, stream.stream_key, started, new Date(started.getTime() + 43_200_000))).toEqual({
      reason: 'the session reached max_continuous_duration (43200 s)',
      disable: false,
    });
    const testStream = await create({ test: true });
    expect(await ingest.sessionEnd(testStream.id, testStream.stream_key, started, new Date(started.getTime() + 299_000))).toBeUndefined();
    expect(await ingest.sessionEnd(testStream.id, testStream.stream_key, started, new Date(started.getTime() + 300_000))).toEqual({
      reason: 'a test stream runs at most 5 minutes',
      disable: true,
    });
    const reset = await service.resetStreamKey(stream.id);
    expect(await ingest.sessionEnd(stream.id, stream.stream_key, started)).toEqual({ reason: 'the stream key was reset' });
    expect(await ingest.authorizePublish(stream.stream_key)).toEqual({ refused: 'unknown stream key' });
    await ingest.markEnded(stream.id, A);
    await ingest.markEnded(stream.id, A); // a repeat: disconnected again, no second idle
    const ended = await service.get(stream.id);
    expect(ended.status).toBe('idle');
    expect(ended.active_ingest_protocol).toBeUndefined();

    await service.disable(stream.id);
    expect(await ingest.authorizePublish(reset.stream_key)).toEqual({ refused: 'the live stream is disabled' });
    expect(await ingest.sessionEnd(stream.id, reset.stream_key, started)).toEqual({ reason: 'the live stream was disabled' });
    expect(await ingest.sessionEnd('gone', reset.stream_key, started)).toEqual({ reason: 'the live stream was deleted' });
    await ingest.markActive(stream.id, A, 'rtmp'); // a disabled stream does not turn active
    expect((await service.get(stream.id)).status).toBe('disabled');
    expect(await types(stream.id)).toEqual([
      'video.live_stream.created',
      'video.live_stream.connected',
      'video.live_stream.active',
      'video.live_stream.updated',
      'video.live_stream.disconnected',
      'video.live_stream.idle',
      'video.live_stream.disconnected',
      'video.live_stream.disabled',
    ]);
  });

  it('keeps a stream active through the reconnect window, then makes it idle', async () => {
    const stream = await create({ reconnect_window: 30 });
    await ingest.markActive(stream.id, A, 'rtmp', 'rec-1');
    await ingest.markDisconnected(stream.id, A);
    expect(await service.get(stream.id)).toMatchObject({ status: 'active', active_asset_id: 'rec-1', recent_asset_ids: ['rec-1'] });
    expect((await row(stream.id)).disconnectedAt).toEqual(expect.any(Date));
    await ingest.markActive(stream.id, A, 'rtmp', undefined, true); // the encoder is back: same recording
    expect(await service.get(stream.id)).toMatchObject({ status: 'active', active_asset_id: 'rec-1', recent_asset_ids: ['rec-1'] });
    expect((await row(stream.id)).disconnectedAt).toBeNull();
    await ingest.markDisconnected(stream.id, A);
    await ingest.markIdle(stream.id, A);
    const idle = await service.get(stream.id);
    expect(idle).toMatchObject({ status: 'idle', recent_asset_ids: ['rec-1'] });
    expect(idle.active_asset_id).toBeUndefined();
    expect(await row(stream.id)).toMatchObject({ ingestOwner: null, ingestLeaseUntil: null, disconnectedAt: null });
    expect(await types(stream.id)).toEqual([
      'video.live_stream.created',
      'video.live_stream.connected',
      'video.live_stream.recording',
      'video.live_stream.active',
      'video.live_stream.disconnected',
      'video.live_stream.connected',
      'video.live_stream.disconnected',
      'video.live_stream.idle',
    ]);
  });

  it('asks the ingest to end a recording under way on complete, and its encoder to go 60 s later', async () => {
    const idle = await create();
    await service.complete(idle.id); // nothing recording: nothing to end
    expect(await ingest.completionRequested(idle.id)).toBe(false);

    const stream = await create();
    await ingest.markActive(stream.id, A, 'rtmp', 'rec-9');
    expect(await ingest.completionRequested(stream.id)).toBe(false);
    await service.complete(stream.id);
    expect(await ingest.completionRequested(stream.id)).toBe(true);
    const asked = new Date();
    expect(await ingest.sessionEnd(stream.id, stream.stream_key, asked, new Date(asked.getTime() + 59_000))).toBeUndefined();
    expect(await ingest.sessionEnd(stream.id, stream.stream_key, asked, new Date(asked.getTime() + 61_000))).toEqual({
      reason: 'the live stream was completed 60 s ago',
    });
    await ingest.markIdle(stream.id, A); // the ingest closed the recording
    expect(await ingest.completionRequested(stream.id)).toBe(false);
    expect((await service.get(stream.id)).status).toBe('idle');
  });

  it('leaves a live stream whose process died to be taken over once its lease ran out: disconnected once, by one process only (issue 12, drill 2)', async () => {
    const stream = await create({ reconnect_window: 30 });
    await ingest.markActive(stream.id, A, 'rtmp', 'rec-crash');
    // A is killed: its lease is not renewed
    expect(await ingest.findOrphans(B)).not.toContain(stream.id);
    expect(await ingest.claimOrphan(stream.id, B)).toBeUndefined(); // still A's
    const expired = later(INGEST_LEASE_SECONDS + 1);
    expect(await ingest.findOrphans(B, expired)).toContain(stream.id);

    // two processes start together and both try
    const [b, c] = await Promise.all([ingest.claimOrphan(stream.id, B, expired), ingest.claimOrphan(stream.id, 'host-c:3:cccc', expired)]);
    const winners = [b, c].filter((s) => s !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ status: 'active', activeAssetId: 'rec-crash' });
    expect(winners[0].disconnectedAt).toBeInstanceOf(Date);
    const taker = winners[0].ingestOwner;
    expect([B, 'host-c:3:cccc']).toContain(taker);
    expect(await ingest.findOrphans(A, expired)).not.toContain(stream.id); // the winner holds it now
    expect((await ingest.renewLeases(A, [stream.id])).has(stream.id)).toBe(false); // A is gone for good (it would drop its session)

    // the taker dies too before closing the recording: the next one does not emit disconnected again
    const muchLater = later(3 * INGEST_LEASE_SECONDS);
    const again = await ingest.claimOrphan(stream.id, A, muchLater);
    expect(again).toMatchObject({ ingestOwner: A, disconnectedAt: winners[0].disconnectedAt });
    await ingest.markIdle(stream.id, A);
    expect(await types(stream.id)).toEqual([
      'video.live_stream.created',
      'video.live_stream.connected',
      'video.live_stream.recording',
      'video.live_stream.active',
      'video.live_stream.disconnected',
      'video.live_stream.idle',
    ]);
    expect(await ingest.findOrphans(B, muchLater)).not.toContain(stream.id);
  });

  it('lets a stopping process let its streams go: an encoder that was on is disconnected now, and the stream is taken over at once', async () => {
    const stream = await create();
    await ingest.markActive(stream.id, A, 'srt', 'rec-stop');
    await ingest.release(stream.id, A, true);
    expect(await row(stream.id)).toMatchObject({ ingestOwner: null, ingestLeaseUntil: null });
    expect((await row(stream.id)).disconnectedAt).toBeInstanceOf(Date);
    expect(await ingest.findOrphans(B)).toContain(stream.id);
    expect(await ingest.claimOrphan(stream.id, B)).toMatchObject({ ingestOwner: B, activeAssetId: 'rec-stop' });
    await ingest.markIdle(stream.id, B);
    expect((await types(stream.id)).slice(-3)).toEqual(['video.live_stream.active', 'video.live_stream.disconnected', 'video.live_stream.idle']);
  });

  it('refuses a second encoder while another process has one on; a reconnect window is handed over; continues an orphaned recording', async () => {
    const stream = await create({ reconnect_window: 60 });
    await ingest.markActive(stream.id, A, 'rtmp', 'rec-a');
    expect(await ingest.claimForPublish(stream.id, B)).toEqual({ busy: true });
    expect(await ingest.claimForPublish(stream.id, A)).toEqual({ busy: false }); // its own

    await ingest.markDisconnected(stream.id, A);
    // A's window: B takes the stream and asks A for the recording, which B continues once A let it go
    expect(await ingest.claimForPublish(stream.id, B)).toMatchObject({ busy: false, handover: { activeAssetId: 'rec-a', ingestOwner: B } });
    expect((await ingest.renewLeases(A, [stream.id])).size).toBe(0);
    expect(await ingest.handoverRequested(stream.id, A)).toBe(true);
    expect(await ingest.handoverRequested(stream.id, B)).toBe(false);
    expect(await ingest.handoverPending(stream.id)).toBe(true);
    await ingest.handoverDone(stream.id);
    expect(await ingest.handoverPending(stream.id)).toBe(false);
    await ingest.markIdle(stream.id, A); // A changes nothing now
    expect((await service.get(stream.id)).status).toBe('active');

    await ingest.markActive(stream.id, B, 'rtmp', undefined, true); // B's reconnect: the same recording
    expect(await row(stream.id)).toMatchObject({ activeAssetId: 'rec-a', ingestOwner: B, disconnectedAt: null });
    expect(await ingest.activeAssetOf(stream.id)).toBe('rec-a');
    await ingest.markIdle(stream.id, B);
    await ingest.markActive(stream.id, B, 'rtmp', 'rec-b');
    const claim = await ingest.claimForPublish(stream.id, A, later(INGEST_LEASE_SECONDS + 1)); // B died meanwhile
    expect(claim).toMatchObject({ busy: false, orphan: { activeAssetId: 'rec-b', ingestOwner: A } });
    expect((await types(stream.id)).filter((t) => t === 'video.live_stream.disconnected')).toHaveLength(2);
  });

  it('a holder already closing its recording refuses the hand-over: the reconnect records a new asset', async () => {
    const stream = await create({ reconnect_window: 60 });
    await ingest.markActive(stream.id, A, 'rtmp', 'rec-closing');
    await ingest.markDisconnected(stream.id, A);
    expect(await ingest.claimForPublish(stream.id, B)).toMatchObject({ handover: { activeAssetId: 'rec-closing' } });
    await ingest.handoverRefused(stream.id);
    expect(await ingest.handoverPending(stream.id)).toBe(false);
    expect(await ingest.activeAssetOf(stream.id)).toBeNull();
    await ingest.markActive(stream.id, B, 'rtmp', 'rec-new');
    expect(await row(stream.id)).toMatchObject({ activeAssetId: 'rec-new', recentAssetIds: ['rec-closing', 'rec-new'], ingestOwner: B });
  });
});
