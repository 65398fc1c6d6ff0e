import { readUntil } from '@platform/testing';
import { api, sdk } from './support/context';
import { ReceivedWebhook, receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(60_000);

interface WebhookBody {
  type: string;
  object: { type: string; id: string };
  data: { id: string; status?: string; stream_key?: string; live_stream_id?: string };
}
const bodyOf = (w: ReceivedWebhook) => JSON.parse(w.body) as WebhookBody;

/** Live streams as a resource (spec 2.3, 4.3) with the official SDK; ingest is the live-ingest work's. */
describe('live streams', () => {
  const mux = sdk();

  it('creates a stream with Mux’s defaults, a stream key, playback ids and new_asset_settings', async () => {
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['signed'] },
      passthrough: 'e2e-live',
    });
    expect(stream).toMatchObject({
      status: 'idle',
      latency_mode: 'standard',
      reconnect_window: 60,
      max_continuous_duration: 43200,
      passthrough: 'e2e-live',
      new_asset_settings: { playback_policies: ['signed'] },
      playback_ids: [{ policy: 'public' }],
    });
    expect(stream.stream_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await mux.video.liveStreams.retrieve(stream.id)).toEqual(stream);

    // the playback id names its live stream
    const owner = await mux.video.playbackIds.retrieve(stream.playback_ids![0].id);
    expect(owner).toEqual({ id: stream.playback_ids![0].id, policy: 'public', object: { type: 'live_stream', id: stream.id } });
  });

  it('defaults reconnect_window to 0 for reduced and low latency, and validates every limit', async () => {
    expect((await mux.video.liveStreams.create({ latency_mode: 'low' })).reconnect_window).toBe(0);
    for (const [body, message] of [
      [{ reconnect_window: 1801 }, 'reconnect_window'],
      [{ max_continuous_duration: 43201 }, 'max_continuous_duration'],
      [{ latency_mode: 'fast' }, 'latency_mode'],
      [{ new_asset_settings: { input: [{ url: 'https://example.com/a.mp4' }] } }, 'new_asset_settings.input[0].url: must be omitted for a live stream'],
      [{ simulcast_targets: [{ url: 'https://example.com/app' }] }, 'simulcast_targets[0].url: must be an rtmp:// or rtmps:// URL'],
      [
        { generated_subtitles: [{ transcription_vocabulary_ids: ['missing'] }] },
        'generated_subtitles[0].transcription_vocabulary_ids: no transcription vocabulary missing',
      ],
    ] as const) {
      const res = await api('POST', '/video/v1/live-streams', { body });
      expect([res.status, (res.body.error.messages as string[]).join('\n')]).toEqual([400, expect.stringContaining(message)]);
    }
  });

  it('updates the PATCH subset, resets the key, disables and enables, completes', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'] });
    const patched = await mux.video.liveStreams.update(stream.id, {
      latency_mode: 'reduced',
      reconnect_window: 5,
      max_continuous_duration: 600,
      passthrough: 'p2',
    });
    expect(patched).toMatchObject({ latency_mode: 'reduced', reconnect_window: 5, max_continuous_duration: 600, passthrough: 'p2' });

    const reset = await mux.video.liveStreams.resetStreamKey(stream.id);
    expect(reset.stream_key).not.toBe(stream.stream_key);
    const byOldKey = await api('GET', `/video/v1/live-streams?stream_key=${stream.stream_key}`);
    expect(byOldKey.body.data).toEqual([]);
    const byNewKey = await api('GET', `/video/v1/live-streams?stream_key=${reset.stream_key}`);
    expect(byNewKey.body.data.map((s: { id: string }) => s.id)).toEqual([stream.id]);

    await mux.video.liveStreams.disable(stream.id);
    expect((await mux.video.liveStreams.retrieve(stream.id)).status).toBe('disabled');
    const disabled = await api('GET', '/video/v1/live-streams?status=disabled&limit=100');
    expect(disabled.body.data.map((s: { id: string }) => s.id)).toContain(stream.id);
    await mux.video.liveStreams.enable(stream.id);
    expect((await mux.video.liveStreams.retrieve(stream.id)).status).toBe('idle');
    const complete = await api('PUT', `/video/v1/live-streams/${stream.id}/complete`);
    expect([complete.status, complete.body]).toEqual([200, { data: {} }]);
  });

  it('manages playback ids and subtitles settings', async () => {
    const stream = await mux.video.liveStreams.create({});
    const playbackId = await mux.video.liveStreams.createPlaybackId(stream.id, { policy: 'signed' });
    expect(await mux.video.liveStreams.retrievePlaybackId(stream.id, playbackId.id)).toEqual(playbackId);
    await mux.video.liveStreams.deletePlaybackId(stream.id, playbackId.id);
    expect((await api('GET', `/video/v1/playback-ids/${playbackId.id}`)).status).toBe(404);

    const vocabulary = await mux.video.transcriptionVocabularies.create({ phrases: ['Mux', 'HLS'] });
    const generated = await mux.video.liveStreams.updateGeneratedSubtitles(stream.id, {
      generated_subtitles: [{ name: 'English', transcription_vocabulary_ids: [vocabulary.id] }],
    });
    expect(generated.generated_subtitles).toEqual([{ name: 'English', language_code: 'en', transcription_vocabulary_ids: [vocabulary.id] }]);
    const embedded = await mux.video.liveStreams.updateEmbeddedSubtitles(stream.id, { embedded_subtitles: [{ name: 'CC', language_channel: 'cc2' }] });
    expect(embedded.embedded_subtitles).toEqual([{ name: 'CC', language_code: 'en', language_channel: 'cc2' }]);

    // a deleted vocabulary is disassociated from the stream (spec 4.8)
    await mux.video.transcriptionVocabularies.delete(vocabulary.id);
    const ids = await readUntil(
      async () => (await mux.video.liveStreams.retrieve(stream.id)).generated_subtitles?.[0]?.transcription_vocabulary_ids ?? [],
      (list) => list.length === 0,
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(ids).toEqual([]);
  });

  it('adds and deletes simulcast targets only while idle (409 otherwise)', async () => {
    const stream = await mux.video.liveStreams.create({});
    const target = await mux.video.liveStreams.createSimulcastTarget(stream.id, {
      url: 'rtmp://live.example.com/app',
      stream_key: 'third-party-key',
      passthrough: 'yt',
    });
    expect(target).toEqual({ id: expect.any(String), status: 'idle', url: 'rtmp://live.example.com/app', stream_key: 'third-party-key', passthrough: 'yt' });
    expect(await mux.video.liveStreams.retrieveSimulcastTarget(stream.id, target.id)).toEqual(target);
    expect((await mux.video.liveStreams.retrieve(stream.id)).simulcast_targets).toEqual([target]);

    await mux.video.liveStreams.disable(stream.id);
    const refused = await api('POST', `/video/v1/live-streams/${stream.id}/simulcast-targets`, { body: { url: 'rtmp://other.example/app' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.messages).toEqual(['Simulcast targets can be added only while the live stream is idle; it is disabled']);
    expect((await api('DELETE', `/video/v1/live-streams/${stream.id}/simulcast-targets/${target.id}`)).status).toBe(409);
    await mux.video.liveStreams.enable(stream.id);
    await mux.video.liveStreams.deleteSimulcastTarget(stream.id, target.id);
    expect((await api('GET', `/video/v1/live-streams/${stream.id}/simulcast-targets/${target.id}`)).status).toBe(404);
  });

  it('deletes a stream and its playback ids, and sends the live-stream webhooks, verified with the SDK', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'] });
    await mux.video.liveStreams.disable(stream.id);
    await mux.video.liveStreams.enable(stream.id);
    await mux.video.liveStreams.delete(stream.id);
    expect((await api('GET', `/video/v1/live-streams/${stream.id}`)).status).toBe(404);
    expect((await api('GET', `/video/v1/playback-ids/${stream.playback_ids![0].id}`)).status).toBe(404);

    const hooks = await readUntil(
      () => receivedWebhooks().filter((w) => bodyOf(w).object.id === stream.id),
      (ofStream) => ofStream.some((w) => bodyOf(w).type === 'video.live_stream.deleted'),
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(hooks.map((w) => bodyOf(w).type)).toEqual([
      'video.live_stream.created',
      'video.live_stream.disabled',
      'video.live_stream.enabled',
      'video.live_stream.deleted',
    ]);
    for (const hook of hooks) {
      const event = (await mux.webhooks.unwrap(hook.body, hook.headers, process.env.E2E_WEBHOOK_SECRET)) as unknown as WebhookBody;
      expect(event.object).toEqual({ type: 'live', id: stream.id });
      expect(event.data.stream_key).toBe(stream.stream_key);
    }
  });
});
