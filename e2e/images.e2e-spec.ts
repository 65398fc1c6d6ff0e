import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { barcodeFilter, decodeBarcodes, gifAnimation, imageKind, webpAnimation } from '@platform/testing';
import { imageUrl, settledAsset } from './support/assets';
import { sdk } from './support/context';
import { eventually, pushRtmp } from './support/encoder';
import { FFMPEG, ffprobe, FileServer, serveFiles } from './support/media';

jest.setTimeout(240_000);

const run = promisify(execFile);
const FPS = 30;
const SECONDS = 12;
/** The frame number burnt into every frame (libs/testing's frame-barcode), big enough to read in a storyboard tile. */
const BARCODE = { bits: 12, block: 40 };
/** The source's size: the frame numbers are read at the scale of each image to it. */
const WIDTH = 960;
const HEIGHT = 540;
const scaleOf = (width: number) => width / WIDTH;
const burn = barcodeFilter({ input: '[0:v]', output: '[v]', value: 'N', ...BARCODE });

/** The frame numbers a still or animated image shows, read at the image's scale of the source (`scaleOf`). */
async function frameNumbers(dir: string, image: Buffer, scale: number, crop?: { x: number; y: number; w: number; h: number }): Promise<number[]> {
  const file = path.join(dir, `read-${Date.now()}-${Math.random()}`);
  fs.writeFileSync(file, image);
  const block = BARCODE.block * scale;
  const filters = [
    ...(crop ? [`crop=${crop.w}:${crop.h}:${crop.x}:${crop.y}`] : []),
    `crop=${BARCODE.bits * block}:${block}:0:0`,
    `scale=${BARCODE.bits}:1:flags=area`,
    'format=gray',
  ];
  const { stdout } = await run(FFMPEG, ['-v', 'error', '-i', file, '-vf', filters.join(','), '-f', 'rawvideo', '-'], { encoding: 'buffer' });
  return decodeBarcodes(stdout, BARCODE.bits);
}

async function sizeOf(dir: string, image: Buffer): Promise<string> {
  const file = path.join(dir, `probe-${Date.now()}-${Math.random()}`);
  fs.writeFileSync(file, image);
  const video = (await ffprobe(file)).streams[0];
  return `${video.width}x${video.height}`;
}

const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

/** Images ({image_url}, Mux's image.mux.com paths) driven with the official SDK's playback methods pointed at our image host. */
describe('images: thumbnails, animated images, storyboards', () => {
  const mux = sdk();
  // the SDK's playback methods go to image.mux.com unless told otherwise: this is how a user points them at us
  const images = mux.withOptions({ baseURL: imageUrl('').replace(/\/$/, '') });
  let dir: string;
  let files: FileServer;
  let asset: { id: string; publicId: string; signedId: string };
  let key: { id: string; secret: string };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-images-'));
    await run(FFMPEG, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${WIDTH}x${HEIGHT}:rate=${FPS}:duration=${SECONDS}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`],
      ...['-filter_complex', burn, '-map', '[v]', '-map', '1:a', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-ac', '2', '-movflags', '+faststart', path.join(dir, 'source.mp4')],
    ]);
    files = await serveFiles(dir);
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('source.mp4') }], playback_policies: ['public', 'signed'] });
    const publicId = created.playback_ids!.find((p) => p.policy === 'public')!.id;
    // asked at once: the asset is still preparing, so there is nothing to take an image from yet
    const early = await fetch(imageUrl(`${publicId}/thumbnail.jpg`));
    expect([early.status, ((await early.json()) as { error: { messages: string[] } }).error.messages]).toEqual([
      412,
      [`Playback ID ${publicId} is not ready to play (asset status: preparing)`],
    ]);
    expect((await settledAsset(mux, created.id)).status).toBe('ready');
    asset = { id: created.id, publicId, signedId: created.playback_ids!.find((p) => p.policy === 'signed')!.id };
    const signingKey = await mux.system.signingKeys.create();
    key = { id: signingKey.id, secret: signingKey.private_key! };
  });

  afterAll(async () => {
    // deleting ends what the platform would still do for it (its ladder), which would slow the next files
    if (asset) await mux.video.assets.delete(asset.id);
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('thumbnail: the frame at `time` at the video’s size, then sized as width/height/fit_mode say', async () => {
    const at2 = await images.video.playback.thumbnail(asset.publicId, 'jpg', { time: 2 });
    expect(at2.headers.get('content-type')).toBe('image/jpeg');
    const jpg = await body(at2);
    expect(await sizeOf(dir, jpg)).toBe(`${WIDTH}x${HEIGHT}`);
    expect(await frameNumbers(dir, jpg, 1)).toEqual([60]);
    const small = await body(await images.video.playback.thumbnail(asset.publicId, 'png', { time: 7.5, width: 320 }));
    expect([imageKind(small), await sizeOf(dir, small)]).toEqual(['png', '320x180']);
    expect(await frameNumbers(dir, small, scaleOf(320))).toEqual([225]);
    const cropped = await body(await images.video.playback.thumbnail(asset.publicId, 'webp', { time: 1, width: 200, height: 200, fit_mode: 'smartcrop' }));
    expect([imageKind(cropped), await sizeOf(dir, cropped)]).toEqual(['webp', '200x200']);
    const turned = await body(await images.video.playback.thumbnail(asset.publicId, 'jpg', { time: 1, rotate: 90, width: 180 }));
    expect(await sizeOf(dir, turned)).toBe('180x320');
  });

  it('the default thumbnail is the asset’s thumbnail_time (PATCH), else its middle', async () => {
    const middle = async () => frameNumbers(dir, await body(await fetch(imageUrl(`${asset.publicId}/thumbnail.jpg?width=640`))), scaleOf(640));
    expect(await middle()).toEqual([180]);
    expect((await mux.video.assets.update(asset.id, { thumbnail_time: 3.5 })).thumbnail_time).toBe(3.5);
    expect(await middle()).toEqual([105]);
    await mux.video.assets.deleteThumbnailTime(asset.id);
    expect((await mux.video.assets.retrieve(asset.id)).thumbnail_time).toBeUndefined();
    expect(await middle()).toEqual([180]);
  });

  it('animated GIF and WebP of a span: frame count, delays and size as asked', async () => {
    const gif = await body(await images.video.playback.animated(asset.publicId, 'gif', { start: 4, end: 6, fps: 10, width: 320 }));
    const animation = gifAnimation(gif);
    expect(animation).toMatchObject({ width: 320, height: 180, loops: 0 });
    expect(animation.delaysMs).toEqual(Array(20).fill(100));
    expect((await frameNumbers(dir, gif, scaleOf(320))).slice(0, 3)).toEqual([120, 123, 126]);
    const webp = webpAnimation(await body(await images.video.playback.animated(asset.publicId, 'webp', { start: 0, end: 1 })));
    expect(webp).toMatchObject({ width: 320, height: 180 });
    expect(webp.delaysMs).toHaveLength(15);
  });

  it('storyboard: VTT and JSON describe one sprite sheet of 50 tiles, each tile the frame its cue starts at', async () => {
    const vtt = await images.video.playback.storyboardVtt(asset.publicId);
    const cues = [...vtt.matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> [^\n]+\n(\S+)#xywh=(\d+),(\d+),(\d+),(\d+)/g)].map((m) => ({
      start: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
      url: m[4],
      xywh: [m[5], m[6], m[7], m[8]].map(Number),
    }));
    expect(cues).toHaveLength(50);
    expect(cues[0]).toEqual({ start: 0, url: imageUrl(`${asset.publicId}/storyboard.jpg`), xywh: [0, 0, 256, 144] });
    // typed as a string by the SDK, parsed by it from the JSON answer
    const answer: unknown = await images.video.playback.storyboardMeta(asset.publicId, { format: 'webp' });
    const meta = (typeof answer === 'string' ? JSON.parse(answer) : answer) as {
      url: string;
      tile_width: number;
      tile_height: number;
      duration: number;
      tiles: Array<{ start: number; x: number; y: number }>;
    };
    expect(meta).toMatchObject({ url: imageUrl(`${asset.publicId}/storyboard.webp`), tile_width: 256, tile_height: 144, duration: SECONDS });
    expect(meta.tiles.map((t) => t.start)).toEqual(cues.map((c) => c.start));
    const sheet = await body(await fetch(cues[0].url));
    expect(await sizeOf(dir, sheet)).toBe('1280x1440');
    for (const cue of [cues[1], cues[26], cues[49]]) {
      const [x, y, w, h] = cue.xywh;
      expect(await frameNumbers(dir, sheet, scaleOf(256), { x, y, w, h })).toEqual([Math.round(cue.start * FPS)]);
    }
  });

  it('signed playback ids need a token of the file’s audience; parameters in the token win over the query', async () => {
    const sign = (type: 'thumbnail' | 'gif' | 'storyboard' | 'video', params?: Record<string, string>) =>
      mux.jwt.signPlaybackId(asset.signedId, { keyId: key.id, keySecret: key.secret, type, expiration: '1h', ...(params ? { params } : {}) });
    const thumbnail = await images.video.playback.thumbnail(asset.signedId, 'jpg', { token: await sign('thumbnail', { time: '9', width: '640' }), time: 1 });
    expect(thumbnail.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(await frameNumbers(dir, await body(thumbnail), scaleOf(640))).toEqual([270]);
    expect((await images.video.playback.animated(asset.signedId, 'gif', { token: await sign('gif'), end: 1 })).status).toBe(200);
    const storyboardToken = await sign('storyboard');
    const vtt = await images.video.playback.storyboardVtt(asset.signedId, { token: storyboardToken });
    const sheetUrl = /^(http\S+)#xywh=/m.exec(vtt)![1];
    expect(sheetUrl).toBe(imageUrl(`${asset.signedId}/storyboard.jpg?token=${storyboardToken}`));
    expect((await fetch(sheetUrl)).status).toBe(200);
    for (const [p, reason] of [
      [`${asset.signedId}/thumbnail.jpg`, 'Token is required for a signed playback ID'],
      [`${asset.signedId}/thumbnail.jpg?token=${await sign('video')}`, 'Token audience (aud) must be "t" for thumbnails'],
      [`${asset.signedId}/storyboard.vtt?token=${await sign('thumbnail')}`, 'Token audience (aud) must be "s" for storyboards'],
    ]) {
      const res = await fetch(imageUrl(p));
      expect([res.status, ((await res.json()) as { error: { messages: string[] } }).error.messages]).toEqual([403, [reason]]);
    }
  });

  it('bad parameters get a 400 naming each, and images come back from the store the second time', async () => {
    const res = await fetch(imageUrl(`${asset.publicId}/animated.gif?start=0&end=30&fps=60`));
    expect([res.status, ((await res.json()) as { error: { messages: string[] } }).error.messages]).toEqual([
      400,
      ['end: must be at most 10 seconds after start (30 s asked)', 'fps: must be a whole number from 1 to 30, got "60"'],
    ]);
    const first = await fetch(imageUrl(`${asset.publicId}/thumbnail.jpg?time=10.5`));
    const again = await fetch(imageUrl(`${asset.publicId}/thumbnail.jpg?time=10.5`));
    expect([first.headers.get('x-image-cache'), again.headers.get('x-image-cache')]).toEqual(['miss', 'hit']);
    expect(await body(again)).toEqual(await body(first));
  });

  it('a live stream’s playback id shows its live edge while an encoder pushes (latest=true), moving on with it', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 0, latency_mode: 'reduced' });
    const encoder = pushRtmp(stream.stream_key, { size: `${WIDTH}x${HEIGHT}`, videoFilter: burn, gop: 30 });
    const started = Date.now();
    try {
      const playbackId = stream.playback_ids![0].id;
      const latest = async () => {
        const res = await images.video.playback.thumbnail(playbackId, 'jpg', { latest: true, width: 640 }).catch(() => undefined);
        return res && res.status === 200
          ? { frame: (await frameNumbers(dir, await body(res), scaleOf(640)))[0], cache: res.headers.get('cache-control') }
          : undefined;
      };
      const first = await eventually(latest, (r) => r !== undefined, 30_000);
      expect(first?.cache).toBe('public, max-age=2');
      const pushed = ((Date.now() - started) / 1000) * FPS;
      // the live edge: the newest stored frame, a segment or two behind the encoder
      expect(first!.frame).toBeGreaterThan(pushed - 5 * FPS);
      const later = await eventually(latest, (r) => r !== undefined && r.frame >= first!.frame + 2 * FPS, 20_000);
      expect(later!.frame).toBeGreaterThanOrEqual(first!.frame + 2 * FPS);
    } finally {
      await encoder.stop();
    }
  });
});
