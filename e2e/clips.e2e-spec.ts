import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { barcodeFilter, readBarcodes } from '@platform/testing';
import { playlistUris, resolveUri, settledAsset, streamUrl } from './support/assets';
import { api, sdk } from './support/context';
import { eventually, rtmpPort, spawnEncoder } from './support/encoder';
import { launchChromium, playInBrowser, servePlayerPage } from './support/hls-player';
import { FFMPEG, ffprobe, FileServer, serveFiles } from './support/media';
import { itOnceAcrossModes } from './support/modes';
import { receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(240_000);

const run = promisify(execFile);
const FPS = 30;
/** The frame number burnt into every frame of the sources (libs/testing's frame-barcode). */
const BARCODE = { bits: 12, block: 8 };
const burn = barcodeFilter({ input: '[0:v]', output: '[v]', value: 'N', ...BARCODE });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** 12 s of 320x180 at 30 fps, 2 s closed GOPs with B-frames (frames 0, 60, 120 … are key frames), AAC. */
async function makeSource(file: string): Promise<void> {
  await run(FFMPEG, [
    ...[
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=320x180:rate=${FPS}:duration=12`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=12',
    ],
    ...['-filter_complex', burn, '-map', '[v]', '-map', '1:a', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', '-movflags', '+faststart', file],
  ]);
}

/** The rendition a public playback id plays: the stored `source` (the clip as cut, joins and all) or the master's first variant. */
async function renditionUrl(playbackId: string, variant?: 'source'): Promise<string> {
  if (variant) return streamUrl(`${playbackId}/${variant}/index.m3u8`);
  const master = streamUrl(`${playbackId}.m3u8`);
  const res = await fetch(master);
  if (res.status !== 200) throw new Error(`${master}: ${res.status}`);
  return resolveUri(master, playlistUris(await res.text())[0]);
}

/** ffmpeg's decoder errors for a whole rendition (empty when every frame decodes cleanly). */
async function decodeErrors(url: string): Promise<string> {
  const { stderr } = await run(FFMPEG, ['-v', 'error', '-i', url, '-f', 'null', '-']);
  return stderr;
}

/** The asset webhooks of `id` once `until` has arrived, as the SDK unwraps them. */
async function assetWebhooks(id: string, until: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  const mux = sdk();
  const mine = () => receivedWebhooks().filter((w) => (JSON.parse(w.body) as { object: { id: string } }).object.id === id);
  await eventually(
    async () => mine().map((w) => (JSON.parse(w.body) as { type: string }).type),
    (types) => types.includes(until),
    30_000,
  );
  return Promise.all(mine().map(async (w) => (await mux.webhooks.unwrap(w.body, w.headers, process.env.E2E_WEBHOOK_SECRET)) as never));
}

/** Clips (spec 2.1 source_asset_id, 2.2 `svc://assets/{id}` inputs with start_time/end_time). */
describe('clips of assets', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let source: { id: string; playbackId: string; duration: number };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-clips-'));
    await makeSource(path.join(dir, 'source.mp4'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'this is not a video\n'.repeat(100));
    files = await serveFiles(dir);
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('source.mp4') }], playback_policies: ['public'] });
    const ready = await settledAsset(mux, created.id);
    expect(ready.status).toBe('ready');
    source = { id: created.id, playbackId: created.playback_ids![0].id, duration: ready.duration! };
  });

  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('a clip cut between key frames', () => {
    let clip: { id: string; playbackId: string };

    it('is a new asset naming its source, with its own playback id and settings, ready with the cut’s duration', async () => {
      const created = await mux.video.assets.create({
        inputs: [{ url: `mux://assets/${source.id}`, start_time: 2.5, end_time: 9.2 }],
        playback_policies: ['public'],
        passthrough: 'a clip',
        max_resolution_tier: '1440p',
      });
      expect(created).toMatchObject({
        status: 'preparing',
        ingest_type: 'on_demand_clip',
        source_asset_id: source.id,
        passthrough: 'a clip',
        max_resolution_tier: '1440p',
      });
      expect(created.playback_ids).toEqual([{ id: expect.any(String), policy: 'public' }]);
      expect(created.playback_ids![0].id).not.toBe(source.playbackId);
      clip = { id: created.id, playbackId: created.playback_ids![0].id };

      const ready = await settledAsset(mux, clip.id);
      expect(ready).toMatchObject({
        status: 'ready',
        ingest_type: 'on_demand_clip',
        source_asset_id: source.id,
        resolution_tier: '720p',
        aspect_ratio: '16:9',
      });
      expect(ready.duration).toBeCloseTo(6.7, 1);
      expect(ready.non_standard_input_reasons).toBeUndefined();
      expect(ready.tracks!.map((t) => t.type).sort()).toEqual(['audio', 'video']);
      expect((await mux.video.playbackIds.retrieve(clip.playbackId)).object).toEqual({ type: 'asset', id: clip.id });
      // the source is untouched
      expect(await mux.video.assets.retrieve(source.id)).toMatchObject({ status: 'ready', duration: source.duration });
    });

    it('holds exactly the frames from start_time to end_time, every one intact across the re-encoded and copied joins', async () => {
      const url = await renditionUrl(clip.playbackId, 'source');
      const shown = await readBarcodes(FFMPEG, url, BARCODE);
      // frame 75 is shown at 2.5 s, frame 275 is the last before 9.2 s
      expect(shown).toEqual(range(2.5 * FPS, 9.2 * FPS));
      expect(await decodeErrors(url)).toBe('');
      const probe = await ffprobe(url);
      expect(Number(probe.format.duration)).toBeCloseTo(6.7, 1);
      expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      // then its own ladder, from the same frames
      const ladder = await eventually(
        () => renditionUrl(clip.playbackId),
        (u) => !u.includes('/source/'),
        60_000,
      );
      expect(await readBarcodes(FFMPEG, ladder, BARCODE)).toEqual(range(75, 276));
    });

    it('sends video.asset.created and video.asset.ready with source_asset_id, verified with the SDK', async () => {
      const hooks = await assetWebhooks(clip.id, 'video.asset.ready');
      expect(hooks.map((h) => h.type)).toEqual(['video.asset.created', 'video.asset.ready']);
      for (const hook of hooks) expect(hook.data).toMatchObject({ id: clip.id, source_asset_id: source.id, ingest_type: 'on_demand_clip' });
      expect(hooks[1].data).toEqual(expect.objectContaining({ status: 'ready', duration: (await mux.video.assets.retrieve(clip.id)).duration }));
    });

    itOnceAcrossModes('plays in hls.js in Chromium across the joins: every frame decoded, those shown in order', async () => {
      const browser = await launchChromium();
      const page = await servePlayerPage();
      try {
        const state = await playInBrowser(browser, page.url(streamUrl(`${clip.playbackId}/source/index.m3u8`), { barcode: BARCODE }), 6.6);
        expect([state.fatal, state.mediaError]).toEqual([null, null]);
        expect(state.currentTime).toBeGreaterThanOrEqual(6.6);
        // every frame reached the decoder; of those shown (a busy machine skips some), none is out of order, repeated or foreign
        expect(state.decodedFrames).toBeGreaterThanOrEqual(200);
        expect(state.presented.length).toBeGreaterThan(60);
        // the player presented each frame once, in order (the frames themselves, each once: the ffmpeg check above)
        const times = state.presentedMediaTimes;
        expect(times.filter((t, i) => i > 0 && t <= times[i - 1])).toEqual([]);
        // and the number read off each is never below the one before, with its neighbours (a read can equal the one
        // before: a busy machine's draw inside the frame callback can already catch the next frame)
        const outOfOrder = state.presented.flatMap((n, i) => (i > 0 && n < state.presented[i - 1] ? [state.presented.slice(Math.max(0, i - 3), i + 3)] : []));
        expect(outOfOrder).toEqual([]);
        // the first and last frames shown are the clip's (within the half second a loaded machine may skip)
        expect(state.presented[0]).toBeGreaterThanOrEqual(75);
        expect(state.presented[0]).toBeLessThanOrEqual(90);
        expect(state.presented.at(-1)).toBeGreaterThanOrEqual(260);
        expect(state.presented.at(-1)).toBeLessThanOrEqual(275);
      } finally {
        await browser.close();
        await page.close();
      }
    });
  });

  it('cuts to the end of the source when end_time is left out, from an svc:// url', async () => {
    const created = await mux.video.assets.create({ inputs: [{ url: `svc://assets/${source.id}`, start_time: 10 }], playback_policies: ['public'] });
    const ready = await settledAsset(mux, created.id);
    expect(ready).toMatchObject({ status: 'ready', source_asset_id: source.id });
    expect(ready.duration).toBeCloseTo(2, 1);
    expect(await readBarcodes(FFMPEG, await renditionUrl(created.playback_ids![0].id, 'source'), BARCODE)).toEqual(range(300, 360));
  });

  it('refuses each bad clip with 400 naming the field, creating nothing', async () => {
    // a source that stays preparing (its server never answers), one that errored, one deleted
    const held = http.createServer(() => undefined);
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const preparing = await mux.video.assets.create({ inputs: [{ url: `http://127.0.0.1:${(held.address() as AddressInfo).port}/slow.mp4` }] });
    const errored = await settledAsset(mux, (await mux.video.assets.create({ inputs: [{ url: files.url('notes.txt') }] })).id);
    expect(errored.status).toBe('errored');
    const deleted = await mux.video.assets.create({ inputs: [{ url: files.url('source.mp4') }] });
    await mux.video.assets.delete(deleted.id);
    const ids = async () => (await mux.video.assets.list({ limit: 100 })).data.map((a) => a.id);
    const before = await ids();

    const cases: Array<[string, unknown, string]> = [
      ['unknown source', { url: 'mux://assets/nosuchasset' }, 'input[0].url: there is no asset nosuchasset to clip (unknown or deleted)'],
      ['deleted source', { url: `mux://assets/${deleted.id}` }, `input[0].url: there is no asset ${deleted.id} to clip (unknown or deleted)`],
      ['errored source', { url: `mux://assets/${errored.id}` }, `input[0].url: the asset ${errored.id} is errored; it has no media to clip`],
      ['preparing source', { url: `svc://assets/${preparing.id}` }, `input[0].url: the asset ${preparing.id} is still preparing; clip it once it is ready`],
      ['start_time ≥ end_time', { url: `mux://assets/${source.id}`, start_time: 5, end_time: 5 }, 'input[0].end_time: must be after start_time'],
      ['start_time past the source', { url: `mux://assets/${source.id}`, start_time: 12.5 }, 'input[0].start_time: must be less than the source'],
      ['end_time past the source', { url: `mux://assets/${source.id}`, start_time: 1, end_time: 13 }, 'input[0].end_time: must be at most the source'],
    ];
    for (const [name, input, message] of cases) {
      const res = await api('POST', '/video/v1/assets', { body: { input: [input], playback_policy: ['public'] } });
      expect([name, res.status, res.body.error.type]).toEqual([name, 400, 'invalid_parameters']);
      expect(res.body.error.messages).toEqual([expect.stringContaining(message)]);
    }
    const notFirst = await api('POST', '/video/v1/assets', { body: { inputs: [{ url: files.url('source.mp4') }, { url: `mux://assets/${source.id}` }] } });
    expect([notFirst.status, notFirst.body.error.messages]).toEqual([400, ['inputs[1].url: a clip (svc://assets/{asset_id}) must be the first input']]);
    expect(await ids()).toEqual(before);

    await mux.video.assets.delete(preparing.id);
    held.closeAllConnections();
    held.close();
  });
});

/** Clips of a live stream's recording: while it is live (what it holds so far) and after. */
describe('clips of a live recording', () => {
  const mux = sdk();

  itOnceAcrossModes('cuts what is recorded while the stream is live, and the finished recording after', async () => {
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      new_asset_settings: { playback_policies: ['public'] },
      latency_mode: 'reduced',
      reconnect_window: 0,
    });
    const encoder = spawnEncoder([
      ...['-v', 'error', '-re', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=${FPS}`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-filter_complex', burn, '-map', '[v]', '-map', '1:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '60'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', '-f', 'flv', `rtmp://127.0.0.1:${rtmpPort()}/app/${stream.stream_key}`],
    ]);
    try {
      const active = await eventually(
        () => mux.video.liveStreams.retrieve(stream.id),
        (s) => s.active_asset_id !== undefined,
        30_000,
      );
      const recordingId = active.active_asset_id!;
      const recording = await mux.video.assets.retrieve(recordingId);
      const recordingUrl = await eventually(
        () => renditionUrl(recording.playback_ids![0].id).catch(() => ''),
        (u) => u !== '',
        30_000,
      );
      const recordedSeconds = async () =>
        (await (await fetch(recordingUrl)).text()).split('\n').reduce((sum, l) => sum + (l.startsWith('#EXTINF:') ? Number.parseFloat(l.slice(8)) : 0), 0);
      await eventually(recordedSeconds, (s) => s >= 8, 60_000);
      // the recording's first frame: the encoder had counted some frames before the recording began
      const firstSegment = resolveUri(recordingUrl, playlistUris(await (await fetch(recordingUrl)).text())[0]);
      const [first] = await readBarcodes(FFMPEG, firstSegment, BARCODE);

      const tooLate = await api('POST', '/video/v1/assets', { body: { input: [{ url: `mux://assets/${recordingId}`, start_time: 600 }] } });
      expect([tooLate.status, tooLate.body.error.messages]).toEqual([
        400,
        [expect.stringMatching(/^input\[0\]\.start_time: must be less than what the live recording holds so far/)],
      ]);

      const live = await mux.video.assets.create({
        inputs: [{ url: `mux://assets/${recordingId}`, start_time: 2, end_time: 6 }],
        playback_policies: ['public'],
      });
      expect(live).toMatchObject({ ingest_type: 'on_demand_clip', source_asset_id: recordingId });
      const liveClip = await settledAsset(mux, live.id);
      expect(liveClip.status).toBe('ready');
      expect((await mux.video.assets.retrieve(recordingId)).status).toBe('preparing'); // still live
      expect(await readBarcodes(FFMPEG, await renditionUrl(live.playback_ids![0].id, 'source'), BARCODE)).toEqual(range(first + 2 * FPS, first + 6 * FPS));

      await encoder.stop();
      const finished = await settledAsset(mux, recordingId, 60_000);
      expect(finished.status).toBe('ready');
      const after = await mux.video.assets.create({
        inputs: [{ url: `mux://assets/${recordingId}`, start_time: 1, end_time: 3 }],
        playback_policies: ['public'],
      });
      expect((await settledAsset(mux, after.id)).status).toBe('ready');
      expect(await readBarcodes(FFMPEG, await renditionUrl(after.playback_ids![0].id, 'source'), BARCODE)).toEqual(range(first + FPS, first + 3 * FPS));
    } finally {
      await encoder.stop();
    }
  });
});
