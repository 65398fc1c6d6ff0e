import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { platform, sdk } from './support/context';
import { Encoder, eventually, pushRtmp } from './support/encoder';
import { assetWhen, descendantPids, eventCounts, eventTypes, healthyAgain, processesWith, stillRunning, streamWhen, webhooksOnce } from './support/live-drills';
import { RunningPlatform, startPlatform } from './support/platform-process';
import { childPid, gone } from './support/processes';
import { cueText, pushRtmpSpeech, spokenEnglish, wordsHeardIn } from './support/speech';
import { uploadWhen } from './support/uploads';
import { ReceivedWebhook, receivedWebhooks, startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(420_000);

/** SHUTDOWN_DEADLINE_MS of libs/grpc: a stopping process exits within it. */
const SHUTDOWN_DEADLINE_MS = 20_000;

const settings = { playback_policies: ['public' as const], new_asset_settings: { playback_policies: ['public' as const] }, latency_mode: 'reduced' as const };

/** The names of the segments the recording's own playback id lists (its whole recording so far). */
async function recorded(streamBase: string, mux: Mux, assetId: string): Promise<string[]> {
  const asset = await mux.video.assets.retrieve(assetId);
  const id = asset.playback_ids?.[0]?.id;
  if (!id) return [];
  const master = await fetch(`${streamBase}/${id}.m3u8`);
  if (master.status !== 200) return [];
  const variant = (await master.text()).split('\n').find((l) => l.startsWith(`${id}/`));
  if (!variant) return [];
  return (await (await fetch(`${streamBase}/${variant}`)).text()).split('\n').filter((l) => l.includes('.ts'));
}

/** Waits until an encoder has been recorded for a while (at least `count` segments stored). */
async function recordedAtLeast(streamBase: string, mux: Mux, assetId: string, count: number, prefix = ''): Promise<void> {
  const names = await eventually(
    async () => (await recorded(streamBase, mux, assetId)).filter((n) => n.includes(prefix)),
    (list) => list.length >= count,
    60_000,
  );
  expect(names.length).toBeGreaterThanOrEqual(count);
}

/** A stream whose process went away while its encoder pushed: idle after its window, its recording ready, each event once. */
async function expectClosedOnce(mux: Mux, hooks: () => ReceivedWebhook[], streamId: string, assetId: string, pushedSeconds: number): Promise<void> {
  const idle = await streamWhen(mux, streamId, (s) => s.status === 'idle', 120_000);
  expect(idle.status).toBe('idle');
  expect(idle.active_asset_id).toBeUndefined();
  expect(idle.recent_asset_ids).toEqual([assetId]);
  const asset = await assetWhen(mux, assetId, (a) => a.status !== 'preparing', 60_000);
  expect(asset).toMatchObject({ status: 'ready', is_live: false, live_stream_id: streamId });
  expect(asset.duration).toBeGreaterThanOrEqual(4);
  expect(asset.duration).toBeLessThanOrEqual(pushedSeconds + 2);
  expect(asset.recording_times?.[0]).toMatchObject({ type: 'content' });
  const stream = await webhooksOnce(hooks, streamId, ['video.live_stream.idle']);
  expect(stream).toMatchObject({ 'video.live_stream.disconnected': 1, 'video.live_stream.idle': 1, 'video.live_stream.connected': 1 });
  expect(eventTypes(hooks(), streamId).slice(-2)).toEqual(['video.live_stream.disconnected', 'video.live_stream.idle']);
  expect((await webhooksOnce(hooks, assetId, ['video.asset.ready']))['video.asset.ready']).toBe(1);
}

/** A chunk PUT that sends part of its body and then stalls: an upload in progress. */
function stalledChunk(url: string, chunk: Buffer, range: string, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'PUT', headers: { 'content-length': String(chunk.length), 'content-range': range } });
    req.on('error', () => resolve());
    req.on('response', (res) => (res.resume(), resolve()));
    req.write(chunk.subarray(0, sent));
  });
}

/** One chunk as UpChunk sends it: retried on 408/502/503/504 and on no answer, 5 attempts, 1 s apart. */
async function upchunkPut(url: string, chunk: Buffer, range: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const status = await fetch(url, { method: 'PUT', body: chunk, headers: { 'content-range': range } }).then(
      (r) => r.status,
      () => 0,
    );
    if (![0, 408, 502, 503, 504].includes(status) || attempt === 5) return status;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** ffmpeg processes the platform left pulling from its RTMP server or writing under its DATA_DIR. */
function orphans(env: Record<string, string>, encoders: Encoder[]): string[] {
  const mine = encoders.map((e) => e.child.pid!).filter(Boolean);
  return [...processesWith(`127.0.0.1:${env.RTMP_PORT}/internal/`, mine), ...processesWith(env.DATA_DIR, mine)].filter((l) => /ffmpeg|python/.test(l));
}

/**
 * Drills 2 and 3 of issue 12: the live service goes away while encoders push (kill -9, or SIGTERM)
 * and comes back. The streams it served must not stay `active` with a recording `preparing` for
 * ever: each is taken over, disconnected once, held for the rest of its reconnect window (a
 * reconnect continues the same recording; `complete` ends it at once), then its recording is a
 * ready asset and the stream idle, each webhook sent once. A stop must end within the deadline
 * and leave no ffmpeg behind.
 */
describe('live streams through a crash or a stop of the live service', () => {
  const encoders: Encoder[] = [];
  const push = (key: string, port?: string) => {
    const encoder = pushRtmp(key, { port });
    encoders.push(encoder);
    return encoder;
  };

  afterEach(async () => {
    await Promise.all(encoders.splice(0).map((e) => e.stop()));
  });

  if (platform.mode === 'production') {
    const env = () => JSON.parse(process.env.E2E_PLATFORM_ENV!) as Record<string, string>;
    const streamBase = () => process.env.E2E_STREAM_URL!;
    const livePid = () => childPid(Number(process.env.E2E_PLATFORM_PID), 'services/live/dist/main.js');
    const hooks = () => receivedWebhooks();

    it('kill -9 of the live service while an encoder pushes: restarted, the stream goes idle and its recording ready, each webhook once', async () => {
      const mux = sdk();
      const stream = await mux.video.liveStreams.create({ ...settings, reconnect_window: 5 });
      const encoder = push(stream.stream_key);
      const pushedAt = Date.now();
      const assetId = (await streamWhen(mux, stream.id, (s) => s.status === 'active' && !!s.active_asset_id, 30_000)).active_asset_id!;
      await recordedAtLeast(streamBase(), mux, assetId, 3);
      const pid = livePid();
      expect(pid).toEqual(expect.any(Number));
      process.kill(pid!, 'SIGKILL');
      await gone(pid!);
      const pushed = (Date.now() - pushedAt) / 1000;
      await encoder.exited; // dropped with the process
      await healthyAgain(platform.baseUrl); // start-services.js restarts it, as Kubernetes restarts a pod
      await expectClosedOnce(mux, hooks, stream.id, assetId, pushed);
    });

    it('SIGTERM of the live service while an encoder pushes: it exits within the deadline, no ffmpeg left, and the stream is closed once after its restart', async () => {
      const mux = sdk();
      const stream = await mux.video.liveStreams.create({ ...settings, reconnect_window: 5 });
      const encoder = push(stream.stream_key);
      const pushedAt = Date.now();
      const assetId = (await streamWhen(mux, stream.id, (s) => s.status === 'active' && !!s.active_asset_id, 30_000)).active_asset_id!;
      await recordedAtLeast(streamBase(), mux, assetId, 3);
      const pid = livePid()!;
      const children = descendantPids(pid);
      expect(children.length).toBeGreaterThan(0); // its packager
      const stoppedAt = Date.now();
      process.kill(pid, 'SIGTERM');
      await gone(pid, SHUTDOWN_DEADLINE_MS + 5000);
      expect(Date.now() - stoppedAt).toBeLessThan(SHUTDOWN_DEADLINE_MS);
      const pushed = (Date.now() - pushedAt) / 1000;
      await encoder.exited;
      expect(stillRunning(children)).toEqual([]);
      expect(orphans(env(), encoders)).toEqual([]);
      await healthyAgain(platform.baseUrl);
      await expectClosedOnce(mux, hooks, stream.id, assetId, pushed);
    });
  } else {
    let dataDir: string;
    let receiver: WebhookReceiver;
    let hooksLog: string;
    let own: RunningPlatform | undefined;
    const hooks = () => receivedWebhooks(hooksLog);
    const client = (p: RunningPlatform) => new Mux({ tokenId: p.tokenId, tokenSecret: p.tokenSecret, baseURL: p.baseUrl, maxRetries: 0 });

    beforeEach(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-live-crash-'));
      hooksLog = path.join(dataDir, '..', `${path.basename(dataDir)}-webhooks.jsonl`);
      receiver = await startWebhookReceiver(hooksLog);
      own = await startPlatform('embedded', {
        DATA_DIR: dataDir,
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: 'live-crash-drill',
        WEBHOOK_RETRY_BASE_MS: '200',
        WEBHOOK_RETRY_MAX_MS: '2000',
      });
    });

    afterEach(async () => {
      await Promise.all(encoders.splice(0).map((e) => e.stop()));
      await own?.stop();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(hooksLog, { force: true });
    });

    it('kill -9 of the embedded platform while two encoders push: after the restart one stream closes after its window, the other continues its recording on reconnect and closes on complete', async () => {
      const mux = client(own!);
      const a = await mux.video.liveStreams.create({ ...settings, reconnect_window: 5 });
      const b = await mux.video.liveStreams.create({ ...settings, reconnect_window: 300 });
      push(a.stream_key, own!.env.RTMP_PORT);
      push(b.stream_key, own!.env.RTMP_PORT);
      const pushedAt = Date.now();
      const assetA = (await streamWhen(mux, a.id, (s) => s.status === 'active' && !!s.active_asset_id, 30_000)).active_asset_id!;
      const assetB = (await streamWhen(mux, b.id, (s) => s.status === 'active' && !!s.active_asset_id, 30_000)).active_asset_id!;
      await recordedAtLeast(own!.streamUrl, mux, assetA, 3);
      await recordedAtLeast(own!.streamUrl, mux, assetB, 3);
      const firstB = (await recorded(own!.streamUrl, mux, assetB)).length;

      await own!.kill();
      const pushed = (Date.now() - pushedAt) / 1000;
      await Promise.all(encoders.map((e) => e.exited));
      own = await startPlatform('embedded', own!.env);
      const after = client(own);

      await expectClosedOnce(after, hooks, a.id, assetA, pushed);

      // B: its encoder is back within the window: the same recording goes on, after a discontinuity
      expect((await after.video.liveStreams.retrieve(b.id)).status).toBe('active');
      const again = push(b.stream_key, own.env.RTMP_PORT);
      await eventually(
        () => Promise.resolve(eventCounts(hooks(), b.id)['video.live_stream.connected'] ?? 0),
        (n) => n === 2,
        30_000,
      );
      expect(await after.video.liveStreams.retrieve(b.id)).toMatchObject({ status: 'active', active_asset_id: assetB, recent_asset_ids: [assetB] });
      await recordedAtLeast(own.streamUrl, after, assetB, firstB + 2);
      await again.stop();
      await eventually(
        () => Promise.resolve(eventCounts(hooks(), b.id)['video.live_stream.disconnected'] ?? 0),
        (n) => n === 2,
        30_000,
      );

      // complete, with no encoder on: the recording ends now, not after the 300 s window
      await after.video.liveStreams.complete(b.id);
      const idleB = await streamWhen(after, b.id, (s) => s.status === 'idle', 60_000);
      expect(idleB.status).toBe('idle');
      const readyB = await assetWhen(after, assetB, (x) => x.status !== 'preparing', 60_000);
      expect(readyB.status).toBe('ready');
      expect(readyB.recording_times!.filter((t) => t.type === 'content').length).toBeGreaterThanOrEqual(2);
      expect(readyB.duration).toBeGreaterThan(firstB * 2);
      expect(await webhooksOnce(hooks, b.id, ['video.live_stream.idle'])).toMatchObject({
        'video.live_stream.connected': 2,
        'video.live_stream.disconnected': 2,
        'video.live_stream.idle': 1,
      });
      expect((await webhooksOnce(hooks, assetB, ['video.asset.ready']))['video.asset.ready']).toBe(1);
    });

    it('SIGTERM of the embedded platform while live and while an upload is in progress: it exits within the deadline leaving no ffmpeg, and after the restart both are consistent', async () => {
      const mux = client(own!);
      const stream = await mux.video.liveStreams.create({ ...settings, reconnect_window: 5 });
      push(stream.stream_key, own!.env.RTMP_PORT);
      const pushedAt = Date.now();
      const assetId = (await streamWhen(mux, stream.id, (s) => s.status === 'active' && !!s.active_asset_id, 30_000)).active_asset_id!;
      await recordedAtLeast(own!.streamUrl, mux, assetId, 3);
      const file = randomBytes(2 * 1024 * 1024);
      const half = file.length / 2;
      const upload = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
      const stalled = stalledChunk(upload.url!, file.subarray(0, half), `bytes 0-${half - 1}/${file.length}`, 256 * 1024);
      await new Promise((r) => setTimeout(r, 500));

      const children = descendantPids(own!.pid);
      expect(children.length).toBeGreaterThan(0); // its packager
      const stoppedAt = Date.now();
      process.kill(own!.pid, 'SIGTERM');
      await gone(own!.pid, SHUTDOWN_DEADLINE_MS + 5000);
      expect(Date.now() - stoppedAt).toBeLessThan(SHUTDOWN_DEADLINE_MS);
      await own!.stop();
      expect(stillRunning(children)).toEqual([]);
      const pushed = (Date.now() - pushedAt) / 1000;
      await stalled;
      await Promise.all(encoders.map((e) => e.exited));
      expect(orphans(own!.env, encoders)).toEqual([]);
      const log = fs.readFileSync(own!.logFile, 'utf8');
      expect(log).toContain('shutdown (SIGTERM): stopping');
      expect(log).not.toContain('exiting anyway');

      own = await startPlatform('embedded', own!.env);
      const after = client(own);
      await expectClosedOnce(after, hooks, stream.id, assetId, pushed);
      expect(await upchunkPut(upload.url!, file.subarray(0, half), `bytes 0-${half - 1}/${file.length}`)).toBe(308);
      expect(await upchunkPut(upload.url!, file.subarray(half), `bytes ${half}-${file.length - 1}/${file.length}`)).toBe(200);
      expect((await uploadWhen(after, upload.id, (u) => u.status !== 'waiting')).status).toBe('asset_created');
    });

    it('SIGTERM while a recording’s generated_live_final subtitles are being made: the next start resumes them, and the track becomes ready', async () => {
      const mux = client(own!);
      const wav = await spokenEnglish(dataDir);
      const stream = await mux.video.liveStreams.create({ ...settings, reconnect_window: 0, generated_subtitles: [{}] });
      const encoder = pushRtmpSpeech(stream.stream_key, wav, 4, own!.env.RTMP_PORT);
      encoders.push(encoder);
      const assetId = (await streamWhen(mux, stream.id, (s) => s.status === 'active' && !!s.active_asset_id, 30_000)).active_asset_id!;
      await encoder.exited;
      const ready = await assetWhen(mux, assetId, (a) => a.status === 'ready', 60_000);
      const finalTrack = () => ready.tracks!.find((t) => t.text_source === 'generated_live_final')!;
      expect(finalTrack().status).toBe('preparing'); // the whole recording is being heard again now

      const children = descendantPids(own!.pid);
      expect(children.length).toBeGreaterThan(0); // the recognizer hearing the recording again
      process.kill(own!.pid, 'SIGTERM');
      await gone(own!.pid, SHUTDOWN_DEADLINE_MS + 5000);
      await own!.stop();
      expect(stillRunning(children)).toEqual([]);
      own = await startPlatform('embedded', own!.env);
      const after = client(own);
      const done = await assetWhen(after, assetId, (a) => a.tracks!.some((t) => t.id === finalTrack().id && t.status !== 'preparing'), 120_000);
      expect(done.tracks!.find((t) => t.id === finalTrack().id)).toMatchObject({ status: 'ready', text_source: 'generated_live_final' });
      const vtt = await (await fetch(`${own.streamUrl}/${done.playback_ids![0].id}/text/${finalTrack().id}.vtt`)).text();
      expect(wordsHeardIn(cueText(vtt)).length).toBeGreaterThanOrEqual(3);
      expect((await webhooksOnce(hooks, finalTrack().id!, ['video.asset.track.ready']))['video.asset.track.ready']).toBe(1);
    });
  }
});
