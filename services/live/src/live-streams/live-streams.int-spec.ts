import { loadConfig } from '@platform/config';
import { openDatabase } from '@platform/database';
import { DomainError, ErrorCode } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { createPgliteDatabase, createTestDatabase, rejection } from '@platform/testing';
import { DataSource } from 'typeorm';
import { liveDatabase } from '../database-options';
import { FakeAssets } from '../testing/fake-assets';
import { TranscriptionVocabularyRepository } from '../transcription-vocabularies/transcription-vocabulary.repository';
import { TranscriptionVocabulariesService } from '../transcription-vocabularies/transcription-vocabularies.service';
import { LiveStreamPlaybackIdsService } from './live-stream-playback-ids.service';
import { LiveStreamRepository } from './live-stream.repository';
import { LiveStreamsService } from './live-streams.service';
import { OutboundPolicy } from './outbound-policy';
import { SimulcastTargetsService } from './simulcast-targets.service';

jest.setTimeout(30_000);

interface OutboxPayload {
  type: string;
  object: { type: string; id: string };
  data: Record<string, unknown>;
}

/**
 * Live streams (spec 2.3, 4.3) through the services and the real repository, on Postgres and on
 * PGlite, whose one session deadlocks any read made outside a transaction while it is open.
 */
describe.each([
  ['Postgres', () => createTestDatabase('live_streams')],
  ['PGlite (one shared session)', () => createPgliteDatabase()],
])('live streams on %s', (_name, start: () => Promise<{ url: string; drop(): Promise<void> }>) => {
  let database: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;
  let fakeAssets: FakeAssets;
  let service: LiveStreamsService;
  let playbackIds: LiveStreamPlaybackIdsService;
  let targets: SimulcastTargetsService;
  let vocabularies: TranscriptionVocabulariesService;

  const events = async (id: string): Promise<OutboxPayload[]> =>
    (await dataSource.query<Array<{ payload: OutboxPayload }>>(`SELECT "payload" FROM "live"."outbox" WHERE "key" = $1 ORDER BY "id"`, [id])).map(
      (r) => r.payload,
    );
  const create = (fields: Record<string, unknown> = {}) =>
    service.create({ playback_policy: [], embedded_subtitles: [], generated_subtitles: [], simulcast_targets: [], ...fields });

  beforeAll(async () => {
    database = await start();
    dataSource = await openDatabase(loadConfig({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '3' }), liveDatabase);
    const unitOfWork = new UnitOfWork(dataSource, liveDatabase.schema, { nudge: () => undefined });
    const repository = new LiveStreamRepository(dataSource);
    fakeAssets = new FakeAssets();
    const outbound = new OutboundPolicy('loopback', 1935);
    vocabularies = new TranscriptionVocabulariesService(new TranscriptionVocabularyRepository(dataSource), unitOfWork);
    service = new LiveStreamsService(repository, unitOfWork, fakeAssets, vocabularies, outbound);
    playbackIds = new LiveStreamPlaybackIdsService(repository, unitOfWork);
    targets = new SimulcastTargetsService(repository, unitOfWork, outbound);
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('creates an idle stream with Mux’s defaults, a secret key, its playback ids and targets, and video.live_stream.created', async () => {
    const created = await create({
      playback_policy: ['public', 'signed'],
      passthrough: 'p',
      simulcast_targets: [{ url: 'rtmp://live.example.com/app', stream_key: 'k1', passthrough: 't' }],
      new_asset_settings: { input: [], playback_policy: ['public'], max_resolution_tier: '1080p' },
    });
    expect(created).toMatchObject({
      status: 'idle',
      latency_mode: 'standard',
      reconnect_window: 60,
      max_continuous_duration: 43200,
      audio_only: false,
      test: false,
      use_slate_for_standard_latency: false,
      passthrough: 'p',
      recent_asset_ids: [],
      playback_ids: [
        { id: expect.any(String), policy: 'public' },
        { id: expect.any(String), policy: 'signed' },
      ],
      simulcast_targets: [{ id: expect.any(String), status: 'idle', url: 'rtmp://live.example.com/app', stream_key: 'k1', passthrough: 't' }],
      new_asset_settings: { input: [], playback_policy: ['public'], max_resolution_tier: '1080p' },
    });
    expect(created.stream_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.srt_passphrase.length).toBeGreaterThanOrEqual(32);
    expect(fakeAssets.checked).toEqual([expect.objectContaining({ live_stream_id: created.id, ingest_type: 'live_rtmp' })]);
    const [event] = await events(created.id);
    expect(event).toMatchObject({
      type: 'video.live_stream.created',
      object: { type: 'live', id: created.id },
      data: {
        id: created.id,
        status: 'idle',
        stream_key: created.stream_key,
        latency_mode: 'standard',
        reduced_latency: false,
        new_asset_settings: { playback_policies: ['public'], max_resolution_tier: '1080p' },
      },
    });
    expect(await service.get(created.id)).toEqual(created);
  });

  it('defaults the reconnect window by latency mode, and reads the deprecated reduced_latency', async () => {
    expect((await create({ latency_mode: 'reduced' })).reconnect_window).toBe(0);
    expect((await create({ latency_mode: 'low', reconnect_window: 30 })).reconnect_window).toBe(30);
    expect(await create({ reduced_latency: true })).toMatchObject({ latency_mode: 'reduced', reconnect_window: 0 });
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a reconnect window over 1800', { reconnect_window: 1801 }, ['reconnect_window: must be from 0 to 1800 seconds']],
    ['a max continuous duration under 60', { max_continuous_duration: 59 }, ['max_continuous_duration: must be an integer from 60 to 43200 seconds']],
    ['an unknown latency mode', { latency_mode: 'ultra' }, ['latency_mode: must be one of "low", "reduced", "standard"']],
    [
      'reduced_latency against latency_mode',
      { latency_mode: 'low', reduced_latency: true },
      ['reduced_latency: true contradicts latency_mode "low" (reduced_latency is deprecated: use latency_mode)'],
    ],
    ['an http simulcast url', { simulcast_targets: [{ url: 'http://x/app' }] }, ['simulcast_targets[0].url: must be an rtmp:// or rtmps:// URL']],
    [
      "a simulcast target on the platform's own RTMP ingest (issue 12, drill 5)",
      { simulcast_targets: [{ url: 'rtmp://127.0.0.1:1935/app', stream_key: 'another-streams-key' }] },
      ["simulcast_targets[0].url: it is this platform's own RTMP ingest"],
    ],
    [
      'a simulcast target on localhost at the RTMP port (the default port)',
      { simulcast_targets: [{ url: 'rtmp://localhost/app' }] },
      ["simulcast_targets[0].url: it is this platform's own RTMP ingest"],
    ],
    [
      'a simulcast target on the cloud metadata address',
      { simulcast_targets: [{ url: 'rtmp://169.254.169.254/app' }] },
      ['simulcast_targets[0].url: 169.254.169.254 is a cloud metadata address, which this platform does not connect to'],
    ],
    [
      'a slate image on a private address (OUTBOUND_ALLOW=loopback)',
      { reconnect_slate_url: 'http://10.0.0.8/slate.png' },
      ['reconnect_slate_url: 10.0.0.8 is a private address, which this platform does not connect to (OUTBOUND_ALLOW)'],
    ],
    [
      'two generated subtitles',
      { generated_subtitles: [{ transcription_vocabulary_ids: [] }, { transcription_vocabulary_ids: [] }] },
      ['generated_subtitles: at most one item'],
    ],
    [
      'a reused caption channel',
      { embedded_subtitles: [{ language_channel: 'cc1' }, {}] },
      ['embedded_subtitles[1].language_channel: cc1 is already used by another item'],
    ],
    [
      'an unknown vocabulary',
      { generated_subtitles: [{ transcription_vocabulary_ids: ['nope'] }] },
      ['generated_subtitles[0].transcription_vocabulary_ids: no transcription vocabulary nope'],
    ],
  ])('refuses %s, storing nothing', async (_name, fields, messages) => {
    const before = (await service.list({ limit: 100, page: 1 })).items.length;
    const error = await rejection(create(fields));
    expect(error.code).toBe(ErrorCode.INVALID_PARAMETERS);
    expect(error.messages).toEqual(messages);
    expect((await service.list({ limit: 100, page: 1 })).items.length).toBe(before);
  });

  it('names asset-settings refusals under new_asset_settings', async () => {
    fakeAssets.refuse = DomainError.invalid('input[0].url: must be omitted for a live stream (the stream is the main input)');
    try {
      const error = await rejection(create({ new_asset_settings: { input: [{ url: 'https://x/a.mp4' }], playback_policy: [] } }));
      expect(error.messages).toEqual(['new_asset_settings.input[0].url: must be omitted for a live stream (the stream is the main input)']);
    } finally {
      fakeAssets.refuse = undefined;
    }
  });

  it('links generated subtitles to existing vocabularies, with Mux’s defaults', async () => {
    const vocabulary = await vocabularies.create({ id: '', phrases: ['Mux'] });
    const stream = await create({
      generated_subtitles: [{ name: 'English', transcription_vocabulary_ids: [vocabulary.id] }],
      embedded_subtitles: [{ name: 'CC' }],
    });
    expect(stream.generated_subtitles).toEqual([{ name: 'English', language_code: 'en', transcription_vocabulary_ids: [vocabulary.id] }]);
    expect(stream.embedded_subtitles).toEqual([{ name: 'CC', language_code: 'en', language_channel: 'cc1' }]);
    const cleared = await service.updateGeneratedSubtitles({ id: stream.id, generated_subtitles: [] });
    expect(cleared.generated_subtitles).toEqual([]);
    const captions = await service.updateEmbeddedSubtitles({ id: stream.id, embedded_subtitles: [{ language_code: 'es', language_channel: 'cc3' }] });
    expect(captions.embedded_subtitles).toEqual([{ language_code: 'es', language_channel: 'cc3' }]);
  });

  it('sets and clears the static renditions of the next recordings (checked as asset settings), each change with video.live_stream.updated', async () => {
    const stream = await create({ new_asset_settings: { input: [], playback_policy: ['public'], static_renditions: [] } });
    fakeAssets.checked.length = 0;
    const set = await service.updateNewAssetStaticRenditions({
      id: stream.id,
      static_renditions: [{ resolution: 'highest' }, { resolution: 'audio-only', passthrough: 'a' }],
    });
    expect(set.new_asset_settings).toMatchObject({
      playback_policy: ['public'],
      static_renditions: [{ resolution: 'highest' }, { resolution: 'audio-only', passthrough: 'a' }],
    });
    expect(fakeAssets.checked).toEqual([
      expect.objectContaining({ live_stream_id: stream.id, static_renditions: [{ resolution: 'highest' }, { resolution: 'audio-only', passthrough: 'a' }] }),
    ]);
    await service.updateNewAssetStaticRenditions({
      id: stream.id,
      static_renditions: [{ resolution: 'highest' }, { resolution: 'audio-only', passthrough: 'a' }],
    }); // the same: nothing
    const cleared = await service.updateNewAssetStaticRenditions({ id: stream.id, static_renditions: [] });
    expect(cleared.new_asset_settings?.static_renditions).toEqual([]);
    expect((await events(stream.id)).map((e) => e.type)).toEqual(['video.live_stream.created', 'video.live_stream.updated', 'video.live_stream.updated']);

    fakeAssets.refuse = DomainError.invalid('static_renditions: give static_renditions or mp4_support, not both');
    try {
      const error = await rejection(service.updateNewAssetStaticRenditions({ id: stream.id, static_renditions: [{ resolution: 'highest' }] }));
      expect(error.messages).toEqual(['new_asset_settings.static_renditions: give static_renditions or mp4_support, not both']);
    } finally {
      fakeAssets.refuse = undefined;
    }
    expect((await rejection(service.updateNewAssetStaticRenditions({ id: 'nope', static_renditions: [] }))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('forgets a deleted vocabulary in every stream that names it, once', async () => {
    const kept = await vocabularies.create({ id: '', phrases: ['kept'] });
    const gone = await vocabularies.create({ id: '', phrases: ['gone'] });
    const stream = await create({ generated_subtitles: [{ transcription_vocabulary_ids: [kept.id, gone.id] }] });
    const other = await create();
    await vocabularies.delete(gone.id);
    const handled = { consumer: 'live-vocabularies', eventId: `deleted-${gone.id}` };
    await service.forgetVocabulary(gone.id, handled);
    await service.forgetVocabulary(gone.id, handled); // redelivered
    await service.forgetVocabulary(gone.id, { ...handled, eventId: `again-${gone.id}` }); // another event: no stream names it any more
    expect((await service.get(stream.id)).generated_subtitles[0].transcription_vocabulary_ids).toEqual([kept.id]);
    expect((await events(stream.id)).map((e) => e.type)).toEqual(['video.live_stream.created', 'video.live_stream.updated']);
    expect((await events(other.id)).map((e) => e.type)).toEqual(['video.live_stream.created']);
    const processed = await dataSource.query<Array<{ event_id: string }>>(
      `SELECT "event_id" FROM "live"."processed_events" WHERE "consumer" = 'live-vocabularies' AND "event_id" LIKE $1 ORDER BY "event_id"`,
      [`%-${gone.id}`],
    );
    expect(processed.map((r) => r.event_id)).toEqual([`again-${gone.id}`, `deleted-${gone.id}`]);
  });

  it('handles a vocabulary deletion event once even if a stream names the id again', async () => {
    const gone = await vocabularies.create({ id: '', phrases: ['gone'] });
    const stream = await create({ generated_subtitles: [{ transcription_vocabulary_ids: [gone.id] }] });
    await vocabularies.delete(gone.id);
    const handled = { consumer: 'live-vocabularies', eventId: `deleted-${gone.id}` };
    await service.forgetVocabulary(gone.id, handled);
    // as if the stream named it again: the redelivered event still changes nothing (it was handled)
    await dataSource.query(`UPDATE "live"."live_streams" SET "generated_subtitles" = $2::jsonb WHERE "id" = $1`, [
      stream.id,
      JSON.stringify([{ name: 'English CC', language_code: 'en', transcription_vocabulary_ids: [gone.id] }]),
    ]);
    await service.forgetVocabulary(gone.id, handled);
    expect((await service.get(stream.id)).generated_subtitles[0].transcription_vocabulary_ids).toEqual([gone.id]);
    expect((await events(stream.id)).map((e) => e.type)).toEqual(['video.live_stream.created', 'video.live_stream.updated']);
  });

  it('patches the listed subset, clears passthrough and the slate with an empty string, and emits video.live_stream.updated', async () => {
    const stream = await create({ passthrough: 'x', reconnect_slate_url: 'https://img.example/slate.png' });
    const patched = await service.update({
      id: stream.id,
      passthrough: '',
      latency_mode: 'reduced',
      reconnect_window: 10,
      use_slate_for_standard_latency: true,
      reconnect_slate_url: '',
      max_continuous_duration: 600,
    });
    expect(patched).toMatchObject({ latency_mode: 'reduced', reconnect_window: 10, use_slate_for_standard_latency: true, max_continuous_duration: 600 });
    expect(patched.passthrough).toBeUndefined();
    expect(patched.reconnect_slate_url).toBeUndefined();
    expect((await events(stream.id)).map((e) => e.type)).toEqual(['video.live_stream.created', 'video.live_stream.updated']);
    expect((await rejection(service.update({ id: 'nope', passthrough: 'x' }))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('resets the stream key (the old one no longer finds the stream), disables and enables', async () => {
    const stream = await create();
    const reset = await service.resetStreamKey(stream.id);
    expect(reset.stream_key).not.toBe(stream.stream_key);
    expect((await service.list({ limit: 10, page: 1, stream_key: stream.stream_key })).items).toEqual([]);
    expect((await service.list({ limit: 10, page: 1, stream_key: reset.stream_key })).items.map((s) => s.id)).toEqual([stream.id]);

    await service.disable(stream.id);
    expect((await service.get(stream.id)).status).toBe('disabled');
    expect((await service.list({ limit: 100, page: 1, status: 'disabled' })).items.map((s) => s.id)).toContain(stream.id);
    await service.disable(stream.id); // again: no change, no event
    await service.enable(stream.id);
    expect((await service.get(stream.id)).status).toBe('idle');
    await service.complete(stream.id);
    expect((await events(stream.id)).map((e) => e.type)).toEqual([
      'video.live_stream.created',
      'video.live_stream.updated',
      'video.live_stream.disabled',
      'video.live_stream.enabled',
    ]);
    expect((await rejection(service.complete('nope'))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('adds and removes playback ids (lookup names the live stream) and simulcast targets only while idle', async () => {
    const stream = await create();
    const added = await playbackIds.create({ live_stream_id: stream.id, policy: 'signed' });
    expect(await playbackIds.get({ live_stream_id: stream.id, playback_id: added.id })).toEqual(added);
    expect(await playbackIds.lookup(added.id)).toEqual({
      id: added.id,
      policy: 'signed',
      object: { type: 'live_stream', id: stream.id },
      status: 'idle',
      renditions: [],
    });
    await playbackIds.delete({ live_stream_id: stream.id, playback_id: added.id });
    expect((await rejection(playbackIds.lookup(added.id))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rejection(playbackIds.create({ live_stream_id: stream.id, policy: 'drm' }))).code).toBe(ErrorCode.INVALID_PARAMETERS);

    const target = await targets.create({ live_stream_id: stream.id, target: { url: 'rtmps://b.example/live', stream_key: 'sk' } });
    expect(target).toEqual({ id: expect.any(String), status: 'idle', url: 'rtmps://b.example/live', stream_key: 'sk' });
    expect(await targets.get({ live_stream_id: stream.id, simulcast_target_id: target.id })).toEqual(target);
    await service.disable(stream.id);
    const refused = await rejection(targets.create({ live_stream_id: stream.id, target: { url: 'rtmp://c.example/live' } }));
    expect(refused.code).toBe(ErrorCode.PRECONDITION_FAILED);
    expect(refused.messages).toEqual(['Simulcast targets can be added only while the live stream is idle; it is disabled']);
    expect((await rejection(targets.delete({ live_stream_id: stream.id, simulcast_target_id: target.id }))).code).toBe(ErrorCode.PRECONDITION_FAILED);
    await service.enable(stream.id);
    await targets.delete({ live_stream_id: stream.id, simulcast_target_id: target.id });
    expect((await rejection(targets.get({ live_stream_id: stream.id, simulcast_target_id: target.id }))).messages).toEqual(['Simulcast target not found']);
    const types = (await events(target.id)).map((e) => e.type);
    expect(types).toEqual(['video.live_stream.simulcast_target.created', 'video.live_stream.simulcast_target.deleted']);
  });

  it("refuses a simulcast target on the platform's own RTMP ingest and a slate on a refused address (400), changing nothing", async () => {
    const stream = await create();
    const own = await rejection(targets.create({ live_stream_id: stream.id, target: { url: 'rtmp://[::1]:1935/app', stream_key: 'k' } }));
    expect(own.code).toBe(ErrorCode.INVALID_PARAMETERS);
    expect(own.messages).toEqual(["url: it is this platform's own RTMP ingest"]);
    // another loopback port is allowed with OUTBOUND_ALLOW=loopback (a second RTMP server on the same machine)
    await targets.create({ live_stream_id: stream.id, target: { url: 'rtmp://127.0.0.1:1936/app', stream_key: 'k' } });
    const slate = await rejection(service.update({ id: stream.id, reconnect_slate_url: 'http://169.254.169.254/latest/meta-data/' }));
    expect(slate.code).toBe(ErrorCode.INVALID_PARAMETERS);
    expect(slate.messages).toEqual(['reconnect_slate_url: 169.254.169.254 is a cloud metadata address, which this platform does not connect to']);
    const after = await service.get(stream.id);
    expect(after.reconnect_slate_url).toBeUndefined();
    expect(after.simulcast_targets).toEqual([expect.objectContaining({ url: 'rtmp://127.0.0.1:1936/app' })]);
  });

  it('deletes a stream with its playback ids and targets, emitting video.live_stream.deleted', async () => {
    const stream = await create({ playback_policy: ['public'], simulcast_targets: [{ url: 'rtmp://x.example/app' }] });
    await service.delete(stream.id);
    expect((await rejection(service.get(stream.id))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rejection(playbackIds.lookup(stream.playback_ids[0].id))).code).toBe(ErrorCode.NOT_FOUND);
    const counts = await dataSource.query<Array<{ p: string; t: string }>>(
      `SELECT (SELECT count(*) FROM "live"."playback_ids" WHERE "live_stream_id" = $1) AS p, (SELECT count(*) FROM "live"."simulcast_targets" WHERE "live_stream_id" = $1) AS t`,
      [stream.id],
    );
    expect(counts[0]).toEqual({ p: '0', t: '0' });
    expect((await events(stream.id)).at(-1)).toMatchObject({ type: 'video.live_stream.deleted', data: { id: stream.id } });
    expect((await rejection(service.delete(stream.id))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('lists newest first, filtered by status and stream key', async () => {
    const a = await create();
    const b = await create();
    const page = (await service.list({ limit: 2, page: 1 })).items.map((s) => s.id);
    expect(page).toEqual([b.id, a.id]);
    expect((await rejection(service.list({ limit: 2, page: 1, status: 'live' }))).code).toBe(ErrorCode.INVALID_PARAMETERS);
  });
});
