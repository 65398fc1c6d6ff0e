import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { boundingBox, decodeFrame, integratedLoudness, meanColour, readUntil } from '@platform/testing';
import { settledAsset, streamUrl } from './support/assets';
import { sdk } from './support/context';
import { FFMPEG, ffprobe, FileServer, serveFiles } from './support/media';
import { itOnceAcrossModes } from './support/modes';
import { Variant, variantsOf, x264Options } from './support/renditions';

const run = promisify(execFile);
jest.setTimeout(300_000);

/** Flat blue-grey frames: no pixel is anywhere near the watermarks' colours. */
const BASE: [number, number, number] = [0x20, 0x40, 0x80];
const isRed = (r: number, g: number, b: number) => r > 160 && g < 100 && b < 100;
/** Yellow at 50 % opacity over the base colour. */
const isHalfYellow = (r: number, g: number, b: number) =>
  Math.abs(r - (255 + BASE[0]) / 2) < 30 && Math.abs(g - (255 + BASE[1]) / 2) < 30 && Math.abs(b - BASE[2] / 2) < 30;
/** Pixel boxes read back from decoded video: edges blur by a pixel or two (scaling, 4:2:0 chroma). */
const near = (found: number, expected: number) => expect(Math.abs(found - expected)).toBeLessThanOrEqual(2);
const EBU_R128 = -23;

describe('watermarks, loudness, resolution tiers and video quality (spec 2.1, 2.2), read back from the renditions', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  const created = new Map<string, Promise<{ id: string; playbackId: string }>>();

  const ffmpeg = async (name: string, args: string[]) => {
    await run(FFMPEG, ['-v', 'error', '-y', ...args, path.join(dir, name)]);
  };
  /** An asset made now (so every ladder queues at once), awaited by the tests that read it. */
  const create = (key: string, body: Parameters<typeof mux.video.assets.create>[0]) =>
    created.set(
      key,
      mux.video.assets.create({ playback_policies: ['public'], ...body }).then((a) => ({ id: a.id, playbackId: a.playback_ids![0].id })),
    );
  const ready = async (key: string) => {
    const { id, playbackId } = await created.get(key)!;
    const asset = await settledAsset(mux, id, 240_000);
    return { asset, playbackId, master: streamUrl(`${playbackId}.m3u8`) };
  };
  /** The master once it lists the ladder (an asset ready from its source rendition gets it a little later). */
  const ladderOf = (master: string): Promise<Variant[]> =>
    readUntil(
      () => variantsOf(master),
      (variants) => !variants.some((v) => v.name === 'source'),
      { timeoutMs: 240_000, intervalMs: 500 },
    );
  const streamsOf = async (url: string) =>
    (await ffprobe(url)).streams.map((s) => `${s.codec_type} ${s.codec_name}${s.width ? ` ${s.width}x${s.height}` : ''}`);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-ladder-'));
    const quiet = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=2,volume=-25dB'];
    const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2'];
    await Promise.all([
      // 2 s of flat colour with a quiet tone (about -45 LUFS)
      ffmpeg('flat.mp4', ['-f', 'lavfi', '-i', `color=c=0x204080:s=640x360:r=25:d=2`, ...quiet, ...h264]),
      ffmpeg('red.png', ['-f', 'lavfi', '-i', 'color=c=red:s=300x150', '-frames:v', '1']),
      ffmpeg('yellow.webp', ['-f', 'lavfi', '-i', 'color=c=yellow:s=200x100', '-frames:v', '1', '-c:v', 'libwebp', '-lossless', '1']),
      ffmpeg('mark.gif', ['-f', 'lavfi', '-i', 'color=c=red:s=40x20', '-frames:v', '1']),
      ffmpeg('huge.png', ['-f', 'lavfi', '-i', 'color=c=red:s=5000x16', '-frames:v', '1']),
      // a standard input with a loud tone (about -6 LUFS) at 44.1 kHz
      ffmpeg('loud.mp4', [
        ...[
          '-f',
          'lavfi',
          '-i',
          'testsrc2=size=320x180:rate=25:duration=2',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:sample_rate=44100:duration=2,volume=15dB',
        ],
        ...h264,
        ...['-g', '25'],
      ]),
      // 2560x1440 (above 2048: not standard, so no quick source rendition), 1 s at 5 fps
      ffmpeg('qhd.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=2560x1440:rate=5:duration=1', ...quiet, ...h264, '-shortest']),
      ffmpeg('small.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=2', ...quiet, ...h264]),
    ]);
    files = await serveFiles(dir);
    const flat = { url: files.url('flat.mp4') };
    // two watermarks on one asset (Mux allows several): each is read back at its own place
    create('marks', {
      inputs: [
        flat,
        {
          url: files.url('red.png'),
          overlay_settings: { vertical_align: 'bottom', vertical_margin: '10%', horizontal_align: 'right', horizontal_margin: '5%', width: '25%' },
        },
        {
          url: files.url('yellow.webp'),
          overlay_settings: { vertical_align: 'middle', vertical_margin: '-10%', horizontal_align: 'center', horizontal_margin: '60px', opacity: '50%' },
        },
      ],
      normalize_audio: true,
    });
    create('gif', { inputs: [flat, { url: files.url('mark.gif'), overlay_settings: {} }] });
    create('huge', { inputs: [flat, { url: files.url('huge.png'), overlay_settings: {} }] });
    create('loud', { inputs: [{ url: files.url('loud.mp4') }], normalize_audio: true });
    create('qhd-1440p', { inputs: [{ url: files.url('qhd.mp4') }], max_resolution_tier: '1440p' });
    create('qhd-basic', { inputs: [{ url: files.url('qhd.mp4') }], video_quality: 'basic' });
    create('small-premium', { inputs: [{ url: files.url('small.mp4') }], video_quality: 'premium' });
    create('small-plus', { inputs: [{ url: files.url('small.mp4') }] });
  });

  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('a watermark image (overlay_settings)', () => {
    it('two of them: one in a bottom-right corner with % margins and a % width, burnt into every rendition at its place and size; no stream-copied source', async () => {
      const { asset, playbackId, master } = await ready('marks');
      expect(asset.status).toBe('ready');
      // the mark must be burnt in: the asset became ready with its ladder, never from a copy of the input
      expect((await fetch(streamUrl(`${playbackId}/source/index.m3u8`))).status).toBe(404);
      const variants = await variantsOf(master);
      expect(variants.map((v) => `${v.name} ${v.width}x${v.height}`)).toEqual(['360p 640x360', '270p 480x270']);
      for (const v of variants) {
        const box = boundingBox(await decodeFrame(FFMPEG, v.url, v), v.width, isRed)!;
        // 25 % of the width (2:1 image), 5 % of the width from the right edge, 10 % of the height from the bottom
        const scale = v.width / 640;
        near(box.width, 160 * scale);
        near(box.height, 80 * scale);
        near(box.x, 448 * scale);
        near(box.y, 244 * scale);
        near(v.width - (box.x + box.width), 0.05 * v.width);
        near(v.height - (box.y + box.height), 0.1 * v.height);
      }
    });

    it('the other middle/center with a shift up (-10 %) and right (60 px), no size (its own pixels as if the video were 1920x1080) and 50 % opacity', async () => {
      const { asset, master } = await ready('marks');
      expect(asset.status).toBe('ready');
      const [top] = await variantsOf(master);
      expect([top.width, top.height]).toEqual([640, 360]);
      const frame = await decodeFrame(FFMPEG, top.url, top);
      const box = boundingBox(frame, top.width, isHalfYellow)!;
      // on 640x360 (a third of 1920x1080): 200x100 → 67x33; 60 px → 20 px right; -10 % → 36 px up from the centre
      near(box.width, 67);
      near(box.height, 33);
      near(box.x, (640 - 67) / 2 + 20);
      near(box.y, (360 - 33) / 2 - 36);
      // half yellow, half the frame's own colour
      const inner = { x: box.x + 4, y: box.y + 4, width: box.width - 8, height: box.height - 8 };
      const [r, g, b] = meanColour(frame, top.width, inner);
      const half = (yellow: number, base: number) => (yellow + base) / 2;
      expect(Math.abs(r - half(255, BASE[0]))).toBeLessThan(20);
      expect(Math.abs(g - half(255, BASE[1]))).toBeLessThan(20);
      expect(Math.abs(b - half(0, BASE[2]))).toBeLessThan(20);
    });

    it.each([
      ['gif', 'The watermark image must be a PNG, JPEG or WebP image, not gif.'],
      ['huge', 'The watermark image is 5000x16 pixels; the maximum is 4096x4096.'],
    ])('errors the asset whose watermark is %s, naming the problem', async (key, message) => {
      const { asset } = await ready(key);
      expect(asset.status).toBe('errored');
      expect(asset.errors).toEqual({ type: 'invalid_input', messages: [message] });
    });
  });

  describe('normalize_audio: true (EBU R128, -23 LUFS)', () => {
    it('brings a quiet source to -23 LUFS (±1 LU, measured with ebur128) in every rendition', async () => {
      const source = await integratedLoudness(FFMPEG, path.join(dir, 'flat.mp4'));
      expect(source).toBeLessThan(-35);
      const { asset, master } = await ready('marks');
      expect(asset.normalize_audio).toBe(true);
      for (const v of await variantsOf(master)) expect(Math.abs((await integratedLoudness(FFMPEG, v.url)) - EBU_R128)).toBeLessThanOrEqual(1);
    });

    it('brings a loud source to -23 LUFS in its quick source rendition (video still stream-copied) and in the ladder', async () => {
      const source = await integratedLoudness(FFMPEG, path.join(dir, 'loud.mp4'));
      expect(source).toBeGreaterThan(-12);
      const { asset, playbackId, master } = await ready('loud');
      expect(asset.status).toBe('ready');
      // the source rendition stays stored for players holding the first master
      const sourceRendition = streamUrl(`${playbackId}/source/index.m3u8`);
      expect(Math.abs((await integratedLoudness(FFMPEG, sourceRendition)) - EBU_R128)).toBeLessThanOrEqual(1);
      const copied = (await ffprobe(sourceRendition)).streams.find((s) => s.codec_type === 'video') as { profile?: string };
      const original = (await ffprobe(path.join(dir, 'loud.mp4'))).streams.find((s) => s.codec_type === 'video') as { profile?: string };
      expect(copied.profile).toBe(original.profile); // x264 ultrafast's Constrained Baseline: not the ladder's High
      const ladder = await ladderOf(master);
      expect(ladder.map((v) => v.name)).toEqual(['180p']);
      for (const v of ladder) expect(Math.abs((await integratedLoudness(FFMPEG, v.url)) - EBU_R128)).toBeLessThanOrEqual(1);
    });
  });

  describe('max_resolution_tier', () => {
    it('1440p: a 2560x1440 source reaches 1440p (resolution_tier 1440p), every rendition one video and one audio stream', async () => {
      const { asset, master } = await ready('qhd-1440p');
      expect(asset).toMatchObject({ status: 'ready', max_resolution_tier: '1440p', resolution_tier: '1440p', max_stored_resolution: 'FHD' });
      expect(asset.tracks!.find((t) => t.type === 'video')).toMatchObject({ max_width: 2560, max_height: 1440 });
      const variants = await variantsOf(master);
      expect(variants.map((v) => v.name)).toEqual(['1440p', '1080p', '720p', '540p', '360p', '270p']);
      for (const v of variants) expect(await streamsOf(v.url)).toEqual([`video h264 ${v.width}x${v.height}`, 'audio aac']);
      expect([variants[0].width, variants[0].height]).toEqual([2560, 1440]);
    });

    it('without it (1080p, the default) the same source is capped at 1920x1080', async () => {
      const { asset, master } = await ready('qhd-basic');
      expect(asset).toMatchObject({ status: 'ready', max_resolution_tier: '1080p', resolution_tier: '1080p' });
      expect(asset.tracks!.find((t) => t.type === 'video')).toMatchObject({ max_width: 1920, max_height: 1080 });
      const variants = await variantsOf(master);
      expect(Math.max(...variants.map((v) => v.height))).toBe(1080);
      for (const v of variants) expect(await streamsOf(v.url)).toEqual([`video h264 ${v.width}x${v.height}`, 'audio aac']);
    });

    itOnceAcrossModes('2160p: a 3840x2160 source reaches 2160p with every rung below it', async () => {
      await ffmpeg('uhd.mp4', [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=3840x2160:rate=5:duration=1',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
      ]);
      const made = await mux.video.assets.create({ inputs: [{ url: files.url('uhd.mp4') }], playback_policies: ['public'], max_resolution_tier: '2160p' });
      const asset = await settledAsset(mux, made.id, 240_000);
      expect(asset).toMatchObject({ status: 'ready', resolution_tier: '2160p', max_stored_resolution: 'UHD' });
      const variants = await variantsOf(streamUrl(`${made.playback_ids![0].id}.m3u8`));
      expect(variants.map((v) => `${v.name} ${v.width}x${v.height}`)).toEqual([
        '2160p 3840x2160',
        '1440p 2560x1440',
        '1080p 1920x1080',
        '720p 1280x720',
        '540p 960x540',
        '360p 640x360',
        '270p 480x270',
      ]);
      expect(await streamsOf(variants[0].url)).toEqual(['video h264 3840x2160']);
    });
  });

  describe('video_quality', () => {
    it('basic: x264 superfast, 60 % of the bit rates, three renditions', async () => {
      const { asset, master } = await ready('qhd-basic');
      expect(asset).toMatchObject({ video_quality: 'basic', encoding_tier: 'baseline' });
      const variants = await variantsOf(master);
      expect(variants.map((v) => v.name)).toEqual(['1080p', '720p', '360p']);
      const x264 = await x264Options(FFMPEG, variants[0].url);
      expect(x264).toMatchObject({ subme: '1', me: 'dia', rc: 'abr', bitrate: '3000', vbv_maxrate: '3210', vbv_bufsize: '4500' });
    });

    it('plus (the default) and premium: veryfast vs medium, standard vs 1.5× bit rates; premium streams measurably more bits', async () => {
      const plus = await ready('small-plus');
      const premium = await ready('small-premium');
      expect(plus.asset).toMatchObject({ video_quality: 'plus', encoding_tier: 'smart' });
      expect(premium.asset).toMatchObject({ video_quality: 'premium', encoding_tier: 'premium' });
      const [plusTop] = await ladderOf(plus.master);
      const [premiumTop] = await ladderOf(premium.master);
      expect([plusTop.name, premiumTop.name]).toEqual(['360p', '360p']);
      expect(await x264Options(FFMPEG, plusTop.url)).toMatchObject({ subme: '2', ref: '1', me: 'hex', bitrate: '800' });
      expect(await x264Options(FFMPEG, premiumTop.url)).toMatchObject({ subme: '7', ref: '3', me: 'hex', bitrate: '1200' });
      expect(premiumTop.averageBandwidth / plusTop.averageBandwidth).toBeGreaterThan(1.25);
      const qhd = (await variantsOf((await ready('qhd-1440p')).master))[0];
      expect(await x264Options(FFMPEG, qhd.url)).toMatchObject({ subme: '2', bitrate: '9000' });
    });
  });
});
