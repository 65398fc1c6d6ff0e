import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, PlatformConfig } from '@platform/config';
import { decodeMessages, GrpcStatus } from '@platform/errors';
import { closeEventBus } from '@platform/events';
import { health } from '@platform/proto';
import { bootstrap } from './main';
import { createTestDatabase, freePort, grpcError, grpcTestClient } from '@platform/testing';

jest.setTimeout(30_000);

/** The live service as other processes see it: its own gRPC server on a real database. */
describe('live service over gRPC', () => {
  let database: { url: string; drop(): Promise<void> };
  let config: PlatformConfig;
  let app: Awaited<ReturnType<typeof bootstrap>>;
  let client: ReturnType<typeof grpcTestClient>;

  beforeAll(async () => {
    database = await createTestDatabase('live_app');
    config = loadConfig({
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '3',
      LIVE_GRPC_URL: `127.0.0.1:${await freePort()}`,
      RTMP_PORT: String(await freePort()),
      SRT_PORT: String(await freePort()),
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'live-app-')),
      LOG_LEVEL: 'error',
    });
    app = await bootstrap(config);
    client = grpcTestClient('live', config);
  });

  afterAll(async () => {
    client?.close();
    await app?.close();
    await closeEventBus();
    await database?.drop();
  });

  it('answers the health check SERVING', async () => {
    const reply = await client.service('grpc.health.v1.Health').Check({ service: '' });
    expect(reply).toEqual({ status: health.HealthCheckResponse_ServingStatus.SERVING });
  });

  it('serves TranscriptionVocabulariesService end to end, keeping absent optional fields absent', async () => {
    const vocabularies = client.service('platform.live.v1.TranscriptionVocabulariesService');
    const created = await vocabularies.CreateTranscriptionVocabulary({ phrases: ['Mux', 'RTMP'] });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
      phrases: ['Mux', 'RTMP'],
      created_at: expect.any(Number),
      updated_at: created.created_at,
    });

    const updated = await vocabularies.UpdateTranscriptionVocabulary({ id: created.id, name: 'Named', phrases: ['Mux'], passthrough: 'pt' });
    expect(updated).toMatchObject({ id: created.id, name: 'Named', phrases: ['Mux'], passthrough: 'pt', created_at: created.created_at });
    expect(await vocabularies.GetTranscriptionVocabulary({ id: created.id })).toEqual(updated);
    const listed = await vocabularies.ListTranscriptionVocabularies({ limit: 10, page: 1 });
    expect(listed).toEqual({ items: [updated] });

    expect(await vocabularies.DeleteTranscriptionVocabulary({ id: created.id })).toEqual({});
    const gone = await grpcError(vocabularies.GetTranscriptionVocabulary({ id: created.id }));
    expect(gone.code).toBe(GrpcStatus.NOT_FOUND);
    expect(decodeMessages(gone.details)).toEqual(['Transcription vocabulary not found']);
  });

  it('answers INVALID_ARGUMENT with every problem for a bad vocabulary', async () => {
    const vocabularies = client.service('platform.live.v1.TranscriptionVocabulariesService');
    const error = await grpcError(vocabularies.CreateTranscriptionVocabulary({ phrases: [''], passthrough: 'p'.repeat(256) }));
    expect(error.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(decodeMessages(error.details)).toEqual(['phrases[0]: must be a non-empty string', 'passthrough: must be at most 255 characters']);
  });

  it('serves LiveStreamsService: create with Mux’s defaults, get, a playback id lookup, NOT_FOUND once deleted', async () => {
    const streams = client.service('platform.live.v1.LiveStreamsService');
    const created = (await streams.CreateLiveStream({ playback_policy: ['public'], latency_mode: 'low' })) as {
      id: string;
      playback_ids: Array<{ id: string }>;
    };
    expect(created).toMatchObject({
      status: 'idle',
      latency_mode: 'low',
      reconnect_window: 0,
      max_continuous_duration: 43200,
      stream_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      playback_ids: [{ id: expect.any(String), policy: 'public' }],
    });
    expect(await streams.GetLiveStream({ id: created.id })).toEqual(created);
    expect(await streams.LookupPlaybackId({ id: created.playback_ids[0].id })).toEqual({
      id: created.playback_ids[0].id,
      policy: 'public',
      object: { type: 'live_stream', id: created.id },
      status: 'idle',
      renditions: [],
    });
    expect(await streams.DeleteLiveStream({ id: created.id })).toEqual({});
    const gone = await grpcError(streams.GetLiveStream({ id: created.id }));
    expect(gone.code).toBe(GrpcStatus.NOT_FOUND);
    expect(decodeMessages(gone.details)).toEqual(['Live stream not found']);
    expect((await grpcError(streams.LookupPlaybackId({ id: created.playback_ids[0].id }))).code).toBe(GrpcStatus.NOT_FOUND);
  });
});
