import { execFile, execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Mux from '@mux/mux-node';
import { INestApplication } from '@nestjs/common';
import { SignJWT } from 'jose';
import type { Server } from 'node:http';
import { loadConfig, PlatformConfig } from '@platform/config';
import { drainHttpOnClose, listenHttpAlso } from '@platform/grpc';
import { assetKeys, createObjectStore, ObjectStore } from '@platform/storage';
import { barcodeFilter, decodeBarcodes, freePort, gifAnimation, imageKind, riffSizeRight, webpAnimation } from '@platform/testing';
import { playbackHttpApp, playbackHttpFakes } from '../testing';

jest.setTimeout(120_000);
const run = promisify(execFile);

const ffmpegScript = path.resolve(__dirname, '../../../../scripts/infra/ffmpeg.sh');
const tool = (name: 'ffmpeg' | 'ffprobe') => execFileSync('bash', [ffmpegScript, name], { encoding: 'utf8' }).trim();

/** The frame number burnt into every frame as 12 blocks of 32 px (readable in 256 px storyboard tiles too). */
const BARCODE = { bits: 12, block: 32 };
const FPS = 30;
const SECONDS = 12;

const mux = new Mux({ tokenId: 'unused', tokenSecret: 'unused', baseURL: 'http://127.0.0.1:9' });

/**
 * The image host over HTTP on its own port, with real ffmpeg: a 12 s 640x360 video with its frame number
 * burnt in, stored as an HLS ladder of two renditions (2 s GOPs with B-frames, 4 s segments, as the
 * transcoder makes them), played back through thumbnails, animated images and storyboards whose pixels
 * are decoded and read.
 */
describe('image host over HTTP (real ffmpeg, fs object store, fake assets service)', () => {
  let app: INestApplication;
  let imageServer: Server;
  let config: PlatformConfig;
  let store: ObjectStore;
  let imageBase: string;
  let streamBase: string;
  let dir: string;
  let ffmpeg: string;
  const fakes = playbackHttpFakes();
  const { assets: assetsClient, live: liveClient, keys } = fakes;
  let liveSegments: string[] = [];
  let key: { id: string; secret: string };

  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${imageBase}/${p}`, { headers });
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
  const errorOf = async (res: Response) => ((await res.json()) as { error: { type: string; messages: string[] } }).error;
  const sign = (playbackId: string, type: 'video' | 'thumbnail' | 'gif' | 'storyboard', params?: Record<string, string>) =>
    mux.jwt.signPlaybackId(playbackId, { keyId: key.id, keySecret: key.secret, type, expiration: '1h', ...(params ? { params } : {}) });

  /** The frame number burnt into a still image (or each frame of a video file), read at the image's scale. */
  const frameNumbers = async (file: Buffer, scale: number, crop?: { x: number; y: number; width: number; height: number }) => {
    const input = path.join(dir, `read-${Date.now()}-${Math.random()}.bin`);
    fs.writeFileSync(input, file);
    const block = BARCODE.block * scale;
    const filters = [
      ...(crop ? [`crop=${crop.width}:${crop.height}:${crop.x}:${crop.y}`] : []),
      `crop=${BARCODE.bits * block}:${block}:0:0`,
      `scale=${BARCODE.bits}:1:flags=area`,
      'format=gray',
    ];
    const { stdout } = await run(ffmpeg, ['-v', 'error', '-i', input, '-vf', filters.join(','), '-f', 'rawvideo', '-'], { encoding: 'buffer' });
    return decodeBarcodes(stdout, BARCODE.bits);
  };
  const probe = async (file: Buffer) => {
    const input = path.join(dir, `probe-${Date.now()}-${Math.random()}.bin`);
    fs.writeFileSync(input, file);
    const { stdout } = await run(tool('ffprobe'), ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', input]);
    return (JSON.parse(stdout) as { streams: Array<{ codec_name: string; width: number; height: number }> }).streams[0];
  };
  /** The picture as gray pixels, `w`×`h`. */
  const gray = async (file: Buffer, w: number, h: number) => {
    const input = path.join(dir, `gray-${Date.now()}-${Math.random()}.bin`);
    fs.writeFileSync(input, file);
    const { stdout } = await run(ffmpeg, ['-v', 'error', '-i', input, '-vf', `scale=${w}:${h}:flags=area,format=gray`, '-f', 'rawvideo', '-'], {
      encoding: 'buffer',
    });
    return stdout;
  };

  beforeAll(async () => {
    ffmpeg = tool('ffmpeg');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'image-host-'));
    const [streamPort, imagePort] = [await freePort(), await freePort()];
    config = {
      ...loadConfig({}),
      dataDir: dir,
      s3: undefined,
      streamPort,
      images: { port: imagePort, renderConcurrency: 2 },
      media: { ...loadConfig({}).media, ffmpegPath: ffmpeg, ffprobePath: tool('ffprobe') },
    };
    store = createObjectStore(config);
    await storeLadder(ffmpeg, store, dir, 'asset-img');
    await store.putBuffer(assetKeys.hls('asset-audio', 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=130000,CODECS="mp4a.40.2"\naudio/index.m3u8\n');
    assetsClient.add('pubImg', 'public', 'asset-img');
    assetsClient.owners.get('pubImg')!.duration = SECONDS;
    assetsClient.add('sigImg', 'signed', 'asset-img');
    assetsClient.add('chosenImg', 'public', 'asset-img');
    assetsClient.owners.get('chosenImg')!.thumbnail_time = 7.5;
    assetsClient.add('prepImg', 'public', 'asset-prep', 'preparing');
    assetsClient.add('audioImg', 'public', 'asset-audio');
    liveSegments = await storeLiveRecording(ffmpeg, store, dir, 'asset-live');
    await listLiveSegments(store, 'asset-live', liveSegments.slice(0, 2));
    liveClient.owners.set('liveImg', {
      id: 'liveImg',
      policy: 'public',
      object: { type: 'live_stream', id: 'ls1' },
      status: 'active',
      media_asset_id: 'asset-live',
      renditions: [],
    });
    liveClient.owners.set('idleImg', {
      id: 'idleImg',
      policy: 'public',
      object: { type: 'live_stream', id: 'ls2' },
      status: 'idle',
      media_asset_id: 'asset-live',
      renditions: [],
    });
    const created = await keys.create();
    key = { id: created.id, secret: created.private_key! };

    app = await playbackHttpApp(config, fakes, { images: true, logger: ['error'] });
    await app.listen(streamPort, '127.0.0.1');
    imageServer = await listenHttpAlso(app, imagePort, '127.0.0.1');
    streamBase = `http://127.0.0.1:${streamPort}`;
    imageBase = `http://127.0.0.1:${imagePort}`;
  });

  afterAll(async () => {
    if (app) await drainHttpOnClose(app, 100, [imageServer]).close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('thumbnails', () => {
    it('shows the frame presented at `time` (mid-GOP B-frames too), clamped into the asset, as a JPEG of the video’s size', async () => {
      for (const [time, frame] of [
        [0, 0],
        [1.5, 45],
        [2, 60],
        [3.01, 90],
        [5.99, 179],
        [7.75, 232],
        [11.97, 359],
        [100, 359],
        [-4, 0],
      ]) {
        const res = await get(`pubImg/thumbnail.jpg?time=${time}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        const image = await bytes(res);
        expect(await probe(image)).toEqual({ codec_name: 'mjpeg', width: 640, height: 360 });
        expect({ time, frames: await frameNumbers(image, 1) }).toEqual({ time, frames: [frame] });
      }
    });

    it('defaults to the asset’s thumbnail_time, else its middle', async () => {
      expect(await frameNumbers(await bytes(await get('pubImg/thumbnail.jpg')), 1)).toEqual([180]);
      expect(await frameNumbers(await bytes(await get('chosenImg/thumbnail.jpg')), 1)).toEqual([225]);
    });

    it('sizes the image as width, height and fit_mode say, and writes PNG and WebP', async () => {
      const sizeOf = async (query: string) => {
        const image = await bytes(await get(`pubImg/thumbnail.png?time=4&${query}`));
        const { width, height, codec_name } = await probe(image);
        expect(codec_name).toBe('png');
        return `${width}x${height}`;
      };
      expect(await sizeOf('width=160')).toBe('160x90');
      expect(await sizeOf('height=90')).toBe('160x90');
      expect(await sizeOf('width=100&height=100')).toBe('100x56');
      expect(await sizeOf('width=100&height=100&fit_mode=stretch')).toBe('100x100');
      expect(await sizeOf('width=100&height=100&fit_mode=crop')).toBe('100x100');
      expect(await sizeOf('width=100&height=100&fit_mode=smartcrop')).toBe('100x100');
      expect(await sizeOf('width=100&height=100&fit_mode=pad')).toBe('100x100');
      expect(await sizeOf('rotate=90')).toBe('360x640');
      expect(await sizeOf('width=1280')).toBe('1280x720');
      const webp = await bytes(await get('pubImg/thumbnail.webp?time=4&width=320'));
      expect([imageKind(webp), riffSizeRight(webp)]).toEqual(['webp', true]);
      expect(await probe(webp)).toMatchObject({ width: 320, height: 180 });
      // a small thumbnail is decoded from the smaller rendition and still shows the right frame
      expect(await frameNumbers(await bytes(await get('pubImg/thumbnail.jpg?time=4&width=320')), 0.5)).toEqual([120]);
    });

    it('pads with black bars, and flips and rotates the picture', async () => {
      const padded = await gray(await bytes(await get('pubImg/thumbnail.png?time=4&width=100&height=100&fit_mode=pad')), 100, 100);
      expect(padded[0]).toBeLessThan(20); // the bar above the 100x56 picture
      expect(padded[50 * 100 + 50]).toBeGreaterThan(20);
      const plain = await gray(await bytes(await get('pubImg/thumbnail.png?time=4&width=64&height=36')), 64, 36);
      const flipped = await gray(await bytes(await get('pubImg/thumbnail.png?time=4&width=64&height=36&flip_h=true')), 64, 36);
      const upsideDown = await gray(await bytes(await get('pubImg/thumbnail.png?time=4&width=64&height=36&rotate=180')), 64, 36);
      let mirrored = 0;
      let turned = 0;
      for (let y = 0; y < 36; y++) {
        for (let x = 0; x < 64; x++) {
          mirrored += Math.abs(plain[y * 64 + x] - flipped[y * 64 + (63 - x)]);
          turned += Math.abs(plain[y * 64 + x] - upsideDown[(35 - y) * 64 + (63 - x)]);
        }
      }
      expect(mirrored / (64 * 36)).toBeLessThan(6);
      expect(turned / (64 * 36)).toBeLessThan(6);
    });

    it('keeps what it made in the object store: the next request is a hit, with validators and immutable caching for an explicit time', async () => {
      const first = await get('pubImg/thumbnail.jpg?time=9.1');
      const body = await bytes(first);
      const again = await get('pubImg/thumbnail.jpg?time=9.1');
      expect([first.headers.get('x-image-cache'), again.headers.get('x-image-cache')]).toEqual(['miss', 'hit']);
      expect(await bytes(again)).toEqual(body);
      expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(again.headers.get('access-control-allow-origin')).toBe('*');
      const etag = again.headers.get('etag')!;
      expect((await get('pubImg/thumbnail.jpg?time=9.1', { 'if-none-match': etag })).status).toBe(304);
      expect((await get('pubImg/thumbnail.jpg')).headers.get('cache-control')).toBe('public, max-age=300');
      expect((await store.list('assets/asset-img/images/')).length).toBeGreaterThan(3);
    });
  });

  describe('animated images', () => {
    it('makes a GIF of the span at the frame rate asked: frame count, delays, size and the first frame', async () => {
      const res = await get('pubImg/animated.gif?start=1&end=3&fps=10&width=160');
      expect(res.headers.get('content-type')).toBe('image/gif');
      const gif = await bytes(res);
      const animation = gifAnimation(gif);
      expect(animation).toMatchObject({ width: 160, height: 90, loops: 0 });
      expect(animation.delaysMs).toEqual(Array(20).fill(100));
      expect((await frameNumbers(gif, 0.25)).slice(0, 2)).toEqual([30, 33]);
    });

    it('defaults to 5 s from 0 at 15 fps, 320 px wide, and makes animated WebP', async () => {
      const gif = gifAnimation(await bytes(await get('pubImg/animated.gif')));
      expect({ width: gif.width, height: gif.height, frames: gif.delaysMs.length }).toEqual({ width: 320, height: 180, frames: 75 });
      expect(gif.delaysMs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(4900);
      expect(gif.delaysMs.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5100);
      const animatedWebp = await bytes(await get('pubImg/animated.webp?start=10&end=12&fps=5'));
      expect(riffSizeRight(animatedWebp)).toBe(true);
      const webp = webpAnimation(animatedWebp);
      expect(webp).toMatchObject({ width: 320, height: 180, loops: 0 });
      expect(webp.delaysMs).toEqual(Array(10).fill(200));
    });

    it('refuses spans and sizes beyond Mux’s limits with 400, naming them', async () => {
      const res = await get('pubImg/animated.gif?start=1&end=20&width=2000');
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toEqual({
        type: 'invalid_parameters',
        messages: ['end: must be at most 10 seconds after start (19 s asked)', 'width: must be a whole number from 1 to 640, got "2000"'],
      });
    });
  });

  describe('storyboards', () => {
    it('lays 50 evenly spaced tiles five to a row, each the frame its VTT cue starts at', async () => {
      const sheet = await bytes(await get('pubImg/storyboard.jpg'));
      expect(await probe(sheet)).toEqual({ codec_name: 'mjpeg', width: 1280, height: 1440 });
      const vttRes = await get('pubImg/storyboard.vtt');
      expect(vttRes.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
      const cues = parseVtt(await vttRes.text());
      expect(cues).toHaveLength(50);
      expect(cues[0]).toMatchObject({ start: 0, url: `${imageBase}/pubImg/storyboard.jpg`, xywh: [0, 0, 256, 144] });
      expect(cues[5].xywh).toEqual([0, 144, 256, 144]);
      expect(cues[49].end).toBeCloseTo(SECONDS, 2);
      for (const [i, cue] of cues.entries()) {
        if (i > 0) expect(cue.start).toBe(cues[i - 1].end);
        expect(Math.abs(cue.start - (i * SECONDS) / 50)).toBeLessThan(0.25); // evenly spaced (on a frame)
      }
      for (const cue of [cues[0], cues[7], cues[23], cues[49]]) {
        const [x, y, w, h] = cue.xywh;
        expect(await frameNumbers(sheet, 0.4, { x, y, width: w, height: h })).toEqual([Math.round(cue.start * FPS)]);
      }
      const json = (await (await get('pubImg/storyboard.json?format=webp')).json()) as {
        url: string;
        tile_width: number;
        tile_height: number;
        duration: number;
        tiles: unknown[];
      };
      expect(json).toMatchObject({ url: `${imageBase}/pubImg/storyboard.webp`, tile_width: 256, tile_height: 144, duration: SECONDS });
      expect(json.tiles).toEqual(cues.map((c) => ({ start: c.start, x: c.xywh[0], y: c.xywh[1] })));
      const webp = await bytes(await get('pubImg/storyboard.webp'));
      expect(await probe(webp)).toEqual({ codec_name: 'webp', width: 1280, height: 1440 });
      expect(riffSizeRight(webp)).toBe(true);
    });

    it('covers only the span asked (asset_start_time/asset_end_time), its cue times from the span’s start', async () => {
      const cues = parseVtt(await (await get('pubImg/storyboard.vtt?asset_start_time=4&asset_end_time=6')).text());
      expect(cues[0]).toMatchObject({ start: 0, url: `${imageBase}/pubImg/storyboard.jpg?asset_start_time=4&asset_end_time=6` });
      expect(cues[cues.length - 1].end).toBeCloseTo(2, 2);
      const sheet = await bytes(await get('pubImg/storyboard.jpg?asset_start_time=4&asset_end_time=6'));
      expect(await frameNumbers(sheet, 0.4, { x: 0, y: 0, width: 256, height: 144 })).toEqual([120]);
    });

    it('writes absolute URLs of the host the request was sent to (a proxy’s X-Forwarded-Host/Proto)', async () => {
      const cues = parseVtt(await (await get('pubImg/storyboard.vtt', { 'x-forwarded-host': 'image.example.com', 'x-forwarded-proto': 'https' })).text());
      expect(cues[0].url).toBe('https://image.example.com/pubImg/storyboard.jpg');
    });
  });

  describe('live streams', () => {
    it('shows the live edge (the newest frame) without a time or with latest=true, briefly cacheable, and follows the recording', async () => {
      const edge = await get('liveImg/thumbnail.jpg');
      expect(edge.headers.get('cache-control')).toBe('public, max-age=2');
      expect(await frameNumbers(await bytes(edge), 1)).toEqual([119]);
      expect(await frameNumbers(await bytes(await get('liveImg/thumbnail.jpg?latest=true')), 1)).toEqual([119]);
      await listLiveSegments(store, 'asset-live', liveSegments);
      expect(await frameNumbers(await bytes(await get('liveImg/thumbnail.jpg?latest=true')), 1)).toEqual([179]);
      // a time is a moment of the recording so far
      expect(await frameNumbers(await bytes(await get('liveImg/thumbnail.jpg?time=1')), 1)).toEqual([30]);
    });

    it('answers 412 while a live stream has no media yet', async () => {
      liveClient.owners.set('newImg', {
        id: 'newImg',
        policy: 'public',
        object: { type: 'live_stream', id: 'ls3' },
        status: 'active',
        media_asset_id: 'asset-new',
        renditions: [],
      });
      const res = await get('newImg/thumbnail.jpg?latest=true');
      expect([res.status, (await errorOf(res)).messages]).toEqual([412, ['The video has no media yet: try again once its first segment is stored']]);
    });

    it('refuses latest=true once the stream is not live (412), and images its latest recording otherwise', async () => {
      const res = await get('idleImg/thumbnail.jpg?latest=true');
      expect([res.status, (await errorOf(res)).messages]).toEqual([
        412,
        ['Live stream of playback ID idleImg is not live: latest=true needs an ongoing live stream'],
      ]);
      expect((await get('idleImg/thumbnail.jpg?time=2')).status).toBe(200);
    });
  });

  describe('signed playback ids', () => {
    it('takes a token of the file’s audience (t, g, s), and a claim wins over the query', async () => {
      const thumbnail = await sign('sigImg', 'thumbnail', { time: '4' });
      const res = await get(`sigImg/thumbnail.jpg?time=1&token=${thumbnail}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(await frameNumbers(await bytes(res), 1)).toEqual([120]);
      expect((await get(`sigImg/animated.gif?end=1&token=${await sign('sigImg', 'gif')}`)).status).toBe(200);
      const storyboardToken = await sign('sigImg', 'storyboard');
      const cues = parseVtt(await (await get(`sigImg/storyboard.vtt?token=${storyboardToken}`)).text());
      expect(cues[0].url).toBe(`${imageBase}/sigImg/storyboard.jpg?token=${storyboardToken}`);
      expect((await get(`sigImg/storyboard.jpg?token=${storyboardToken}`)).status).toBe(200);
    });

    it('applies the playback restriction a token names, as for video: Referer checked on every image', async () => {
      const restriction = await fakes.restrictions.create({
        referrer: { allowed_domains: ['*.example.com'], allow_no_referrer: false },
        user_agent: undefined,
      });
      const token = await sign('sigImg', 'thumbnail', { playback_restriction_id: restriction.id });
      const without = await get(`sigImg/thumbnail.jpg?time=1&token=${token}`);
      expect([without.status, (await errorOf(without)).messages]).toEqual([403, ['A Referer header is required by the playback restriction']]);
      const elsewhere = await get(`sigImg/thumbnail.jpg?time=1&token=${token}`, { referer: 'https://evil.test/page' });
      expect([elsewhere.status, (await errorOf(elsewhere)).messages]).toEqual([403, ['The Referer domain is not allowed by the playback restriction']]);
      expect((await get(`sigImg/thumbnail.jpg?time=1&token=${token}`, { referer: 'https://www.example.com/watch' })).status).toBe(200);
    });

    it('refuses a missing token, another audience, another playback id, or an expired one with 403 and the reason', async () => {
      const reasons = async (p: string) => {
        const res = await get(p);
        return [res.status, (await errorOf(res)).messages[0]];
      };
      expect(await reasons('sigImg/thumbnail.jpg')).toEqual([403, 'Token is required for a signed playback ID']);
      expect(await reasons(`sigImg/thumbnail.jpg?token=${await sign('sigImg', 'video')}`)).toEqual([403, 'Token audience (aud) must be "t" for thumbnails']);
      expect(await reasons(`sigImg/storyboard.vtt?token=${await sign('sigImg', 'thumbnail')}`)).toEqual([
        403,
        'Token audience (aud) must be "s" for storyboards',
      ]);
      expect(await reasons(`sigImg/thumbnail.jpg?token=${await sign('pubImg', 'thumbnail')}`)).toEqual([403, 'Token is for another playback ID']);
      const expired = await new SignJWT({ sub: 'sigImg', aud: 't', kid: key.id })
        .setProtectedHeader({ alg: 'RS256' })
        .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
        .sign(createPrivateKey(Buffer.from(key.secret, 'base64').toString('utf8')));
      expect(await reasons(`sigImg/thumbnail.jpg?token=${expired}`)).toEqual([403, 'Token is expired']);
    });
  });

  describe('refusals', () => {
    it('answers 412 with the reason for an asset still preparing, 404 for unknown ids and for video-less assets', async () => {
      const preparing = await get('prepImg/thumbnail.jpg');
      expect([preparing.status, (await errorOf(preparing)).messages]).toEqual([412, ['Playback ID prepImg is not ready to play (asset status: preparing)']]);
      expect((await get('nope/thumbnail.jpg')).status).toBe(404);
      const audio = await get('audioImg/thumbnail.jpg');
      expect([audio.status, (await errorOf(audio)).messages]).toEqual([404, ['Playback ID audioImg has no video to take images from']]);
    });

    it('refuses bad parameters with 400 naming each, and keeps nothing for them', async () => {
      const before = (await store.list('assets/asset-img/images/')).length;
      const res = await get('pubImg/thumbnail.jpg?width=0&fit_mode=zoom&latest=true');
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toEqual({
        type: 'invalid_parameters',
        messages: ['width: must be a whole number from 1 to 3840, got "0"', 'fit_mode: must be one of preserve, stretch, crop, smartcrop, pad, got "zoom"'],
      });
      const latest = await get('pubImg/thumbnail.jpg?latest=true');
      expect([latest.status, (await errorOf(latest)).messages]).toEqual([400, ["latest: only a live stream's playback ID has a latest thumbnail"]]);
      expect((await store.list('assets/asset-img/images/')).length).toBe(before);
    });

    it('keeps the two hosts apart: no images on the stream port, no HLS on the image port', async () => {
      expect((await fetch(`${streamBase}/pubImg/thumbnail.jpg`)).status).toBe(404);
      expect((await fetch(`${streamBase}/pubImg.m3u8`)).status).toBe(200);
      expect((await get('pubImg.m3u8')).status).toBe(404);
      expect((await get('healthz')).status).toBe(200);
      for (const url of [`${imageBase}/pubImg/storyboard.vtt`, `${streamBase}/pubImg/high.mp4`, `${streamBase}/pubImg/360p/index.m3u8`]) {
        const preflight = await fetch(url, { method: 'OPTIONS' });
        expect([url, preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([url, 204, '*']);
      }
    });
  });
});

/** The cues of a storyboard VTT: times, the sheet URL and its #xywh. */
function parseVtt(text: string): Array<{ start: number; end: number; url: string; xywh: number[] }> {
  const seconds = (t: string) => {
    const [h, m, s] = t.split(':');
    return Number(h) * 3600 + Number(m) * 60 + Number(s);
  };
  expect(text.startsWith('WEBVTT\n\n')).toBe(true);
  return text
    .trim()
    .split('\n\n')
    .slice(1)
    .map((block) => {
      const [times, target] = block.split('\n');
      const [start, end] = times.split(' --> ').map(seconds);
      const [url, fragment] = target.split('#xywh=');
      return { start, end, url, xywh: fragment.split(',').map(Number) };
    });
}

/** A live recording as the live ingest stores one: 2 s segments of the encoder's video under `live/`, its master listing them. */
async function storeLiveRecording(ffmpeg: string, store: ObjectStore, dir: string, assetId: string): Promise<string[]> {
  const out = path.join(dir, 'live');
  fs.mkdirSync(out, { recursive: true });
  const burn = barcodeFilter({ input: '[0:v]', output: '[v]', value: 'N', ...BARCODE });
  await run(ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=${FPS}`, '-t', '6', '-filter_complex', burn, '-map', '[v]'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0'],
    ...['-f', 'hls', '-hls_time', '2', '-hls_segment_filename', path.join(out, 'segment_%03d.ts'), path.join(out, 'index.m3u8')],
  ]);
  const names = fs
    .readdirSync(out)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  for (const name of names) await store.putFile(assetKeys.hls(assetId, `live/${name}`), path.join(out, name));
  await store.putBuffer(assetKeys.hls(assetId, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=640x360\nlive/index.m3u8\n');
  return names;
}

/** The recording's EVENT playlist listing these segments (2 s each), as it grows while live. */
async function listLiveSegments(store: ObjectStore, assetId: string, names: string[]): Promise<void> {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-PLAYLIST-TYPE:EVENT', ...names.flatMap((n) => ['#EXTINF:2.000000,', n]), ''];
  await store.putBuffer(assetKeys.hls(assetId, 'live/index.m3u8'), lines.join('\n'));
}

/**
 * A ladder as the transcoder stores one: 640x360 and 320x180 H.264 (x264 with B-frames, an IDR every 2 s)
 * with AAC, in 4 s MPEG-TS segments, and a master playlist listing both.
 */
async function storeLadder(ffmpeg: string, store: ObjectStore, dir: string, assetId: string): Promise<void> {
  const out = path.join(dir, 'ladder');
  fs.mkdirSync(out, { recursive: true });
  const burn = barcodeFilter({ input: '[0:v]', output: '[v]', value: 'N', ...BARCODE });
  await run(ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=${FPS}`, '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', String(SECONDS)],
    ...['-filter_complex', `${burn};[v]split=2[a][b];[b]scale=320:180[small]`],
    ...['-map', '[a]', '-map', '1:a', '-map', '[small]', '-map', '1:a'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-c:a', 'aac', '-b:a', '64k'],
    ...['-f', 'hls', '-hls_time', '4', '-hls_playlist_type', 'vod', '-hls_segment_filename', path.join(out, '%v/segment_%03d.ts')],
    ...['-var_stream_map', 'v:0,a:0,name:360p v:1,a:1,name:180p', path.join(out, '%v/index.m3u8')],
  ]);
  for (const variant of ['360p', '180p']) {
    for (const file of fs.readdirSync(path.join(out, variant)))
      await store.putFile(assetKeys.hls(assetId, `${variant}/${file}`), path.join(out, variant, file));
  }
  await store.putBuffer(
    assetKeys.hls(assetId, 'master.m3u8'),
    [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"',
      '360p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,CODECS="avc1.64000d,mp4a.40.2"',
      '180p/index.m3u8',
      '',
    ].join('\n'),
  );
}
