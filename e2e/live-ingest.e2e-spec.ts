import { settledAsset, streamUrl } from './support/assets';
import { api, sdk } from './support/context';
import { itOnceAcrossModes } from './support/modes';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FFMPEG, ffprobe, serveFiles } from './support/media';
import { Encoder, endsWithin, eventually, pushRtmp } from './support/encoder';
import { segmentsListed, variantPlaylist } from './support/live-playlists';
import { ReceivedWebhook, receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(120_000);

const run = promisify(execFile);

/** The darkest and brightest luma of a segment's first frame (ffmpeg signalstats). */
async function lumaRange(url: string): Promise<{ min: number; max: number }> {
  const { stdout } = await run(FFMPEG, ['-v', 'error', '-i', url, '-frames:v', '1', '-vf', 'signalstats,metadata=print:file=-', '-f', 'null', '-']);
  const value = (key: string) => Number(new RegExp(`lavfi\\.signalstats\\.${key}=([0-9.]+)`).exec(stdout)?.[1]);
  return { min: value('YMIN'), max: value('YMAX') };
}

const typeOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { type: string }).type;
const objectOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { object: { id: string } }).object.id;

/** RTMP ingest (spec 3, 4.3): who may publish, and the stream's status while an encoder is on. */
describe('RTMP ingest', () => {
  const mux = sdk();
  const encoders: Encoder[] = [];
  const push = (key: string) => {
    const encoder = pushRtmp(key);
    encoders.push(encoder);
    return encoder;
  };
  const statusOf = async (id: string) => mux.video.liveStreams.retrieve(id);
  // Started first, checked last: the shortest max_continuous_duration (60 s) runs out meanwhile.
  let limited: { id: string; encoder: Encoder; startedAt: number; endedAt?: number };
  // Completed early, checked last: complete drops the encoder 60 s later.
  let completed: { encoder: Encoder; at: number; endedAt?: number } | undefined;

  beforeAll(async () => {
    const stream = await mux.video.liveStreams.create({ max_continuous_duration: 60 });
    limited = { id: stream.id, encoder: pushRtmp(stream.stream_key), startedAt: Date.now() };
    void limited.encoder.exited.then(() => (limited.endedAt = Date.now()));
  });

  afterAll(async () => {
    await limited?.encoder.stop();
    await completed?.encoder.stop();
  });

  afterEach(async () => {
    await Promise.all(encoders.splice(0).map((e) => e.stop()));
  });

  it('makes the stream active while ffmpeg pushes to /app/{stream_key}, idle when it stops, with the events in order', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 0 });
    const encoder = push(stream.stream_key);
    const active = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active',
    );
    expect(active).toMatchObject({ status: 'active', active_ingest_protocol: 'rtmp' });

    await encoder.stop();
    const idle = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'idle',
    );
    expect(idle.status).toBe('idle');
    expect(idle.active_ingest_protocol).toBeUndefined();

    const hooks = await eventually(
      async () =>
        receivedWebhooks()
          .filter((w) => objectOf(w) === stream.id)
          .map(typeOf),
      (types) => types.includes('video.live_stream.idle'),
    );
    expect(hooks).toEqual([
      'video.live_stream.created',
      'video.live_stream.connected',
      'video.live_stream.recording',
      'video.live_stream.active',
      'video.live_stream.disconnected',
      'video.live_stream.idle',
    ]);
  });

  it('records a session: a growing live playlist on the stream’s playback id, then a ready asset of the right length', async () => {
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['public'] },
      latency_mode: 'reduced',
    });
    const playbackId = stream.playback_ids![0].id;
    const encoder = push(stream.stream_key);
    const pushedAt = Date.now();
    const active = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active' && s.active_asset_id !== undefined,
    );
    const assetId = active.active_asset_id!;
    expect(active.recent_asset_ids).toEqual([assetId]);
    expect(await mux.video.assets.retrieve(assetId)).toMatchObject({ status: 'preparing', is_live: true, live_stream_id: stream.id });

    // live: the master names one variant whose playlist grows segment by segment
    const segmentsNow = () => segmentsListed(playbackId);
    const first = await eventually(segmentsNow, (n) => n >= 1, 30_000);
    expect(first).toBeGreaterThanOrEqual(1);
    const later = await eventually(segmentsNow, (n) => n >= first + 2, 30_000);
    expect(later).toBeGreaterThanOrEqual(first + 2);
    // the stream's playback id plays the live edge (a sliding window); the recording's own playback
    // id plays the whole recording so far (DVR)
    expect(await (await fetch(streamUrl(`${playbackId}.m3u8`))).text()).toContain(`${playbackId}/window/index.m3u8`);
    const recording = await mux.video.assets.retrieve(assetId);
    const dvrId = recording.playback_ids![0].id;
    const dvrMaster = await (await fetch(streamUrl(`${dvrId}.m3u8`))).text();
    expect(dvrMaster).toContain(`${dvrId}/live/index.m3u8`);
    const dvr = await (await fetch(streamUrl(dvrMaster.split('\n').find((l) => l.startsWith(`${dvrId}/`))!))).text();
    expect(dvr).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(dvr).toContain('#EXT-X-MEDIA-SEQUENCE:0');
    const probe = await ffprobe(streamUrl(`${playbackId}.m3u8`));
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);

    await new Promise((r) => setTimeout(r, Math.max(0, 10_000 - (Date.now() - pushedAt))));
    await encoder.stop();
    const pushedSeconds = (Date.now() - pushedAt) / 1000;
    const idle = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'idle',
      30_000,
    );
    expect(idle.active_asset_id).toBeUndefined();
    expect(idle.recent_asset_ids).toEqual([assetId]);

    const asset = await settledAsset(mux, assetId);
    expect(asset).toMatchObject({ status: 'ready', is_live: false, live_stream_id: stream.id, ingest_type: 'live_rtmp', resolution_tier: '720p' });
    expect(asset.duration!).toBeGreaterThan(pushedSeconds - 5);
    expect(asset.duration!).toBeLessThanOrEqual(pushedSeconds + 1);
    expect((await api('GET', `/video/v1/assets?live_stream_id=${stream.id}`)).body.data.map((a: { id: string }) => a.id)).toEqual([assetId]);
    // the recording plays on its own playback id, ended
    const recordedMaster = await (await fetch(streamUrl(`${asset.playback_ids![0].id}.m3u8`))).text();
    const recordedVariant = await (await fetch(streamUrl(recordedMaster.split('\n').find((l) => l.includes('/live/index.m3u8'))!))).text();
    expect(recordedVariant).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(recordedVariant.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    const recorded = await ffprobe(streamUrl(`${asset.playback_ids![0].id}.m3u8`));
    expect(recorded.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
  });

  it('records only the audio of an audio_only stream', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], audio_only: true, latency_mode: 'low', reconnect_window: 0 });
    const encoder = push(stream.stream_key);
    const active = await eventually(
      () => statusOf(stream.id),
      (s) => s.active_asset_id !== undefined,
    );
    await eventually(
      () => segmentsListed(stream.playback_ids![0].id),
      (n) => n >= 2,
      30_000,
    );
    const live = await ffprobe(streamUrl(`${stream.playback_ids![0].id}.m3u8`));
    expect(live.streams.map((s) => s.codec_type)).toEqual(['audio']);
    await encoder.stop();
    const asset = await settledAsset(mux, active.active_asset_id!);
    expect(asset).toMatchObject({ status: 'ready', max_stored_resolution: 'Audio only', resolution_tier: 'audio-only' });
    expect(asset.tracks!.map((t) => t.type)).toEqual(['audio']);
  });

  it('plays a signed live stream only with a token, exactly as a signed asset', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['signed'], latency_mode: 'low', reconnect_window: 0 });
    const playbackId = stream.playback_ids![0].id;
    push(stream.stream_key);
    await eventually(
      () => statusOf(stream.id),
      (s) => s.active_asset_id !== undefined,
    );
    const key = await mux.system.signingKeys.create();
    const token = await mux.jwt.signPlaybackId(playbackId, { keyId: key.id, keySecret: key.private_key!, expiration: '1h', type: 'video' });
    const signedMaster = streamUrl(`${playbackId}.m3u8?token=${token}`);
    await eventually(
      async () => (await fetch(signedMaster)).status,
      (status) => status === 200,
      30_000,
    );
    const refused = await fetch(streamUrl(`${playbackId}.m3u8`));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { messages: string[] } }).error.messages).toEqual(['Token is required for a signed playback ID']);
    // the children go through the grants the master hands out
    const probe = await ffprobe(signedMaster);
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    const variant = (await (await fetch(signedMaster)).text()).split('\n').find((l) => l.startsWith(`${playbackId}/`))!;
    expect(variant).toMatch(/^[^?]+\/window\/index\.m3u8\?grant=/);
    expect((await fetch(streamUrl(variant.split('?')[0]))).status).toBe(403);
  });

  it('holds the recording open for the reconnect window with slate while the encoder is away: a reconnect continues the same asset', async () => {
    // reduced latency with a window: slate is always inserted (spec 2.3)
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], latency_mode: 'reduced', reconnect_window: 8 });
    const playbackId = stream.playback_ids![0].id;
    const first = push(stream.stream_key);
    const started = Date.now();
    const active = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active' && s.active_asset_id !== undefined,
    );
    const assetId = active.active_asset_id!;
    await new Promise((r) => setTimeout(r, 5000));
    await first.stop();
    let pushed = (Date.now() - started) / 1000;

    // inside the window: still active, the live playlist goes on growing with slate, and the same key
    // reconnects into the same asset
    const livePlaylist = () => variantPlaylist(playbackId);
    const atDisconnect = (await livePlaylist()).split('\n').filter((l) => l.includes('.ts')).length;
    const withSlate = await eventually(livePlaylist, (text) => text.includes('slate'), 8000);
    expect(withSlate).toMatch(/#EXT-X-DISCONTINUITY\n#EXTINF:[0-9.]+,\n[^\n]*slate/);
    expect(withSlate.split('\n').filter((l) => l.includes('.ts')).length).toBeGreaterThan(atDisconnect);
    expect((await statusOf(stream.id)).status).toBe('active');
    const slatePart = await ffprobe(streamUrl(`${playbackId}.m3u8`));
    expect(slatePart.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 640, height: 360 });
    const second = push(stream.stream_key);
    const resumed = Date.now();
    await new Promise((r) => setTimeout(r, 5000));
    await second.stop();
    pushed += (Date.now() - resumed) / 1000;

    const idle = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'idle',
      40_000,
    );
    expect(idle.recent_asset_ids).toEqual([assetId]);
    const asset = await settledAsset(mux, assetId);
    expect(asset.status).toBe('ready');
    // content, the slate while away, content; the slate after the last session is dropped
    const times = asset.recording_times!;
    expect(times.map((t) => t.type)).toEqual(['content', 'slate', 'content']);
    for (const t of times) expect(Number.isNaN(Date.parse(t.started_at!))).toBe(false);
    expect(Date.parse(times[1].started_at!)).toBeGreaterThan(Date.parse(times[0].started_at!));
    expect(Date.parse(times[2].started_at!)).toBeGreaterThan(Date.parse(times[1].started_at!));
    const content = times[0].duration! + times[2].duration!;
    expect(content).toBeGreaterThan(pushed - 6);
    expect(content).toBeLessThanOrEqual(pushed + 1);
    expect(times[1].duration).toBeGreaterThan(0);
    expect(asset.duration!).toBeCloseTo(
      times.reduce((sum, t) => sum + t.duration!, 0),
      1,
    );
    const master = await (await fetch(streamUrl(`${asset.playback_ids?.[0]?.id ?? stream.playback_ids![0].id}.m3u8`))).text();
    const variant = await (await fetch(streamUrl(master.split('\n').find((l) => l.includes('/live/index.m3u8'))!))).text();
    expect(variant.match(/#EXT-X-DISCONTINUITY/g)).toHaveLength(2);
    expect(variant.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    expect(
      variant
        .split('\n')
        .filter((l) => l.includes('.ts'))
        .pop(),
    ).not.toContain('slate');
    const types = await eventually(
      async () =>
        receivedWebhooks()
          .filter((w) => objectOf(w) === stream.id)
          .map(typeOf),
      (t) => t.includes('video.live_stream.idle'),
    );
    expect(types.filter((t) => t !== 'video.live_stream.updated')).toEqual([
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

  it('uses reconnect_slate_url’s image as slate (fitted to the stream’s size) and drops the slate after the last session', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slate-'));
    await run(FFMPEG, ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x320', '-frames:v', '1', '-y', path.join(dir, 'slate.png')]);
    const files = await serveFiles(dir);
    try {
      const stream = await mux.video.liveStreams.create({
        playback_policies: ['public'],
        latency_mode: 'low',
        reconnect_window: 6,
        reconnect_slate_url: files.url('slate.png'),
      });
      const playbackId = stream.playback_ids![0].id;
      const encoder = push(stream.stream_key);
      const started = Date.now();
      const active = await eventually(
        () => statusOf(stream.id),
        (s) => s.status === 'active' && s.active_asset_id !== undefined,
      );
      await new Promise((r) => setTimeout(r, 4000));
      await encoder.stop();
      const pushed = (Date.now() - started) / 1000;

      const variantUrl = async () => {
        const master = await (await fetch(streamUrl(`${playbackId}.m3u8`))).text();
        return streamUrl(master.split('\n').find((l) => l.startsWith(`${playbackId}/`))!);
      };
      const playlist = await eventually(
        async () => (await fetch(await variantUrl())).text(),
        (text) => text.includes('slate'),
        8000,
      );
      const slateSegment = playlist.split('\n').find((l) => l.includes('slate'))!;
      const slateUrl = new URL(slateSegment, await variantUrl()).toString();
      const probe = await ffprobe(slateUrl);
      expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 640, height: 360 });
      const luma = await lumaRange(slateUrl);
      expect(luma.max - luma.min).toBeGreaterThan(100); // the test pattern, not a plain frame
      expect(files.requests).toEqual(['slate.png']);

      // no reconnect: after the window the asset is ready with the content only
      await eventually(
        () => statusOf(stream.id),
        (s) => s.status === 'idle',
        30_000,
      );
      const asset = await settledAsset(mux, active.active_asset_id!);
      expect(asset.status).toBe('ready');
      expect(asset.recording_times!.map((t) => t.type)).toEqual(['content']);
      expect(asset.duration!).toBeCloseTo(asset.recording_times![0].duration!, 1);
      expect(asset.duration!).toBeLessThanOrEqual(pushed + 1);
    } finally {
      await files.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('complete ends the recording at once (ready asset, stream idle) and keeps the encoder connected for now', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 60 });
    const encoder = pushRtmp(stream.stream_key);
    const active = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active' && s.active_asset_id !== undefined,
    );
    await eventually(
      async () => (await fetch(streamUrl(`${stream.playback_ids![0].id}.m3u8`))).status,
      (status) => status === 200,
    );
    await new Promise((r) => setTimeout(r, 3000));
    await mux.video.liveStreams.complete(stream.id);
    completed = { encoder, at: Date.now() };
    void encoder.exited.then(() => (completed!.endedAt = Date.now()));
    const idle = await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'idle',
      20_000,
    );
    expect(idle.status).toBe('idle');
    const asset = await settledAsset(mux, active.active_asset_id!);
    expect(asset.status).toBe('ready');
    expect(await endsWithin(encoder, 3000)).toBe(false); // still connected: dropped 60 s after complete
    // a second encoder with the key is not let in meanwhile: no new asset
    const other = push(stream.stream_key);
    expect(await endsWithin(other, 15_000)).toBe(true);
    expect((await statusOf(stream.id)).recent_asset_ids).toEqual([active.active_asset_id]);
  });

  it('refuses an unknown key and a disabled stream: the encoder is dropped and nothing turns active', async () => {
    const unknown = push('not-a-key-of-any-stream');
    expect(await endsWithin(unknown, 15_000)).toBe(true);

    const stream = await mux.video.liveStreams.create({});
    await mux.video.liveStreams.disable(stream.id);
    const refused = push(stream.stream_key);
    expect(await endsWithin(refused, 15_000)).toBe(true);
    expect((await statusOf(stream.id)).status).toBe('disabled');
  });

  it('drops the encoder when the key is reset, refuses the old key, takes the new one', async () => {
    const stream = await mux.video.liveStreams.create({});
    const first = push(stream.stream_key);
    await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active',
    );
    const reset = await mux.video.liveStreams.resetStreamKey(stream.id);
    expect(await endsWithin(first, 15_000)).toBe(true);
    expect(
      (
        await eventually(
          () => statusOf(stream.id),
          (s) => s.status === 'idle',
        )
      ).status,
    ).toBe('idle');

    const old = push(stream.stream_key);
    expect(await endsWithin(old, 15_000)).toBe(true);
    push(reset.stream_key);
    expect(
      (
        await eventually(
          () => statusOf(stream.id),
          (s) => s.status === 'active',
        )
      ).status,
    ).toBe('active');
  });

  it('drops the encoder of a stream that is disabled while live; enable lets it back in', async () => {
    const stream = await mux.video.liveStreams.create({});
    const encoder = push(stream.stream_key);
    await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active',
    );
    await mux.video.liveStreams.disable(stream.id);
    expect(await endsWithin(encoder, 15_000)).toBe(true);
    expect((await statusOf(stream.id)).status).toBe('disabled');
    await mux.video.liveStreams.enable(stream.id);
    push(stream.stream_key);
    expect(
      (
        await eventually(
          () => statusOf(stream.id),
          (s) => s.status === 'active',
        )
      ).status,
    ).toBe('active');
  });

  it('drops the encoder of a stream deleted while live', async () => {
    const stream = await mux.video.liveStreams.create({});
    const encoder = push(stream.stream_key);
    await eventually(
      () => statusOf(stream.id),
      (s) => s.status === 'active',
    );
    await mux.video.liveStreams.delete(stream.id);
    expect(await endsWithin(encoder, 15_000)).toBe(true);
  });

  it('disconnects an encoder at max_continuous_duration', async () => {
    expect(await endsWithin(limited.encoder, 80_000)).toBe(true);
    const ranFor = (limited.endedAt! - limited.startedAt) / 1000;
    expect(ranFor).toBeGreaterThanOrEqual(59);
    expect(ranFor).toBeLessThan(75);
    const idle = await eventually(
      () => statusOf(limited.id),
      (s) => s.status === 'idle',
    );
    expect(idle.status).toBe('idle');
    expect(idle.recent_asset_ids).toHaveLength(1); // it was live and recorded until the limit
  });

  itOnceAcrossModes('drops a completed stream’s encoder 60 s after complete', async () => {
    expect(completed).toBeDefined();
    expect(await endsWithin(completed!.encoder, 80_000)).toBe(true);
    const after = (completed!.endedAt! - completed!.at) / 1000;
    expect(after).toBeGreaterThanOrEqual(58);
    expect(after).toBeLessThan(75);
  });
});
