import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig, PlatformConfig } from '@platform/config';
import { assets } from '@platform/proto';
import { FsObjectStore } from '@platform/storage';
import { barcodeFilter, readBarcodes } from '@platform/testing';
import { buildRemuxArgs } from '../media/ffmpeg-args';
import { MediaToolkit, MediaTools } from '../media/media-tools';
import { FakeAssetProcessing } from '../testing/fake-asset-processing';
import { ClipMaker, ClipOutcome } from './clip-maker';
import { DEFAULT_PIPELINE_SETTINGS } from './job-context';
import { TranscodePipeline } from './transcode-pipeline';

const script = resolve(__dirname, '../../../../scripts/infra/ffmpeg.sh');
const tool = (name: 'ffmpeg' | 'ffprobe') => execFileSync('bash', [script, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const BARCODE = { bits: 12, block: 8 };
const FPS = 30;

/**
 * The clip maker with real ffmpeg on stored renditions made as the platform makes them (the remux of a
 * standard input into 4 s HLS segments): 640x360 at 30 fps with 2 s closed GOPs and B-frames, each
 * frame's number burnt in, so every clip's frames are read back and counted.
 */
describe('ClipMaker with real ffmpeg', () => {
  let dir: string;
  let ffmpeg: string;
  let ffprobe: string;
  let store: FsObjectStore;
  let toolkit: MediaToolkit;
  let config: PlatformConfig;

  const encode = (name: string, seconds: number, video: string[], firstFrame = 0) => {
    const file = join(dir, name);
    const burn = barcodeFilter({ input: '[0:v]', output: '[v]', value: `N+${firstFrame}`, ...BARCODE });
    execFileSync(ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=${FPS}:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
      ...['-filter_complex', burn, '-map', '[v]', '-map', '1:a', ...video, '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', file],
    ]);
    return file;
  };
  /** Stores `input` as asset `id`'s rendition `variant`, remuxed as the ingest phase does. */
  const storeRendition = async (id: string, input: string, variant = 'source', media = { hasVideo: true, hasAudio: true }) => {
    const out = mkdtempSync(join(dir, 'remux-'));
    execFileSync(ffmpeg, buildRemuxArgs(input, { outputDir: out, ...media, segmentSeconds: 4, name: variant }));
    await putFolder(id, join(out, variant), variant);
  };
  const putFolder = async (id: string, folder: string, variant: string) => {
    for (const file of readdirSync(folder)) await store.putFile(`assets/${id}/hls/${variant}/${file}`, join(folder, file));
  };
  const make = async (source: string, start: number, end: number): Promise<{ outcome: ClipOutcome; file: string }> => {
    const workDir = mkdtempSync(join(dir, 'work-'));
    const file = join(workDir, 'input');
    const clip: assets.IngestClip = { source_asset_id: source, start_time: start, end_time: end };
    const outcome = await new ClipMaker(store).make(clip, toolkit, file, {
      assetId: `clip-of-${source}`,
      workDir,
      signal: new AbortController().signal,
      onChild: () => undefined,
    });
    return { outcome, file };
  };
  const frames = (file: string) => readBarcodes(ffmpeg, file, BARCODE);
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
  /** Presentation timestamps of the video frames (90 kHz), as ffprobe reads them. */
  const videoPts = (file: string) =>
    (
      JSON.parse(execFileSync(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts', '-of', 'json', file], { encoding: 'utf8' })) as {
        frames: Array<{ pts: number }>;
      }
    ).frames.map((f) => f.pts);
  /** ffmpeg's decoder errors on the whole file (empty when every frame decodes cleanly). */
  const decodeErrors = (file: string) =>
    execFileSync(ffmpeg, ['-v', 'error', '-i', file, '-f', 'null', '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  /** Seconds the audio packets span (first timestamp to the end of the last packet): a TS file's format duration is an estimate. */
  const durationOf = (file: string) => {
    const { packets } = JSON.parse(
      execFileSync(ffprobe, ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'packet=pts,duration', '-of', 'json', file], { encoding: 'utf8' }),
    ) as { packets: Array<{ pts: number; duration: number }> };
    const last = packets[packets.length - 1];
    return (last.pts + last.duration - Math.min(...packets.map((p) => p.pts))) / 90_000;
  };

  beforeAll(async () => {
    Logger.overrideLogger(['error']);
    ffmpeg = tool('ffmpeg');
    ffprobe = tool('ffprobe');
    dir = mkdtempSync(join(tmpdir(), 'clip-int-'));
    config = { ...loadConfig({}), dataDir: join(dir, 'data'), media: { ...loadConfig({}).media, ffmpegPath: ffmpeg, ffprobePath: ffprobe } };
    store = new FsObjectStore(join(dir, 'objects'));
    toolkit = await new MediaTools(config).get();
    // 12 s, key frames every 2 s (frames 0, 60, 120 …), B-frames (veryfast: 3, pyramid): decode runs 2 frames behind
    const gop = ['-c:v', 'libx264', '-preset', 'veryfast', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0'];
    await storeRendition('src', encode('src.mp4', 12, gop));
    await storeRendition('hevc', encode('hevc.mp4', 6, ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error:keyint=60']), '720p');
    await store.putBuffer('assets/hevc/hls/master.m3u8', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\n720p/index.m3u8\n');
    await storeRendition('open', encode('open.mp4', 8, [...gop, '-x264-params', 'open-gop=1:keyint=60']));
    await storeRendition('audio', encode('audio.m4a', 10, ['-vn']), 'source', { hasVideo: false, hasAudio: true });
    // a live recording across a reconnect: frames 0–179, then (a new encoder session, timestamps starting over) 180–359
    const parts = [0, 180].map((first) => encode(`part-${first}.mp4`, 6, gop, first));
    const live = mkdtempSync(join(dir, 'live-'));
    const playlists = parts.map((part, i) => {
      execFileSync(ffmpeg, buildRemuxArgs(part, { outputDir: live, hasVideo: true, hasAudio: true, segmentSeconds: 4, name: `p${i}` }));
      return readFileSync(join(live, `p${i}`, 'index.m3u8'), 'utf8');
    });
    mkdirSync(join(live, 'live'));
    const entries = playlists.map((text, i) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('#EXTINF') || l.endsWith('.ts'))
        .map((l) => (l.endsWith('.ts') ? `p${i}-${l}` : l)),
    );
    for (const i of [0, 1])
      for (const f of readdirSync(join(live, `p${i}`)).filter((f) => f.endsWith('.ts')))
        writeFileSync(join(live, 'live', `p${i}-${f}`), readFileSync(join(live, `p${i}`, f)));
    writeFileSync(
      join(live, 'live', 'index.m3u8'),
      ['#EXTM3U', '#EXT-X-PLAYLIST-TYPE:EVENT', ...entries[0], '#EXT-X-DISCONTINUITY', ...entries[1], ''].join('\n'),
    );
    await putFolder('rec', join(live, 'live'), 'live');
    await store.putBuffer('assets/rec/hls/master.m3u8', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nlive/index.m3u8\n');
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the whole GOPs inside the cut and re-encodes only the partial GOP at each edge, every frame intact', async () => {
    const { outcome, file } = await make('src', 2.5, 9.2);
    expect(outcome.plan).toMatchObject({ path: 'smart', frames: 201, copy: { from: expect.any(Number), to: expect.any(Number) } });
    const { head, copy, tail } = outcome.plan;
    // key frames at 4 s and 8 s: frames 75–119 and 240–275 re-encoded, 120–239 copied
    expect([(head!.range.to - head!.range.from) / 3000, (copy!.to - copy!.from) / 3000, (tail!.range.to - tail!.range.from) / 3000]).toEqual([45, 120, 36]);
    expect(await frames(file)).toEqual(range(75, 276));
    const pts = videoPts(file);
    expect(pts.slice(1).map((p, i) => p - pts[i])).toEqual(Array(200).fill(3000)); // timestamps run on across both joins
    expect(decodeErrors(file)).toBe('');
    expect(durationOf(file)).toBeCloseTo(6.7, 1);
  }, 60_000);

  it('remuxes a cut whose ends fall on key frames (no frame re-encoded)', async () => {
    const { outcome, file } = await make('src', 2, 8);
    expect(outcome.plan).toMatchObject({ path: 'smart', reason: 'both ends fall on GOP boundaries: a remux', frames: 180 });
    expect(outcome.plan.head).toBeUndefined();
    expect(outcome.plan.tail).toBeUndefined();
    expect(await frames(file)).toEqual(range(60, 240));
  }, 60_000);

  it('takes the frame nearest each requested time, and copies the last GOP to the end of the media', async () => {
    // 8.99 s is nearest frame 270; the end of the media ends the last GOP, which is copied whole
    const { outcome, file } = await make('src', 8.99, 12);
    expect(outcome.plan).toMatchObject({ path: 'smart', frames: 90 });
    expect(outcome.plan.tail).toBeUndefined();
    expect(await frames(file)).toEqual(range(270, 360));
    expect(decodeErrors(file)).toBe('');
  }, 60_000);

  it('encodes a cut that lies inside one GOP', async () => {
    const { outcome, file } = await make('src', 2.5, 3.5);
    expect(outcome.plan).toMatchObject({ path: 'encode', reason: 'the cut lies inside one GOP: there is no whole GOP to copy', frames: 30 });
    expect(await frames(file)).toEqual(range(75, 105));
  }, 60_000);

  it.each([
    ['hevc', 1.5, 4.5, /^the video is hevc, not H.264/, 90],
    ['open', 2.5, 6.5, /^the GOP at \d+ is open/, 120],
  ])(
    'encodes the whole cut when the edges cannot join copied GOPs (%s)',
    async (source, start, end, reason, count) => {
      const { outcome, file } = await make(source, start, end);
      expect(outcome.plan.path).toBe('encode');
      expect(outcome.plan.reason).toMatch(reason);
      expect(await frames(file)).toEqual(range(start * FPS, start * FPS + count));
    },
    60_000,
  );

  it('encodes a cut across a live recording’s discontinuity, joining both sides', async () => {
    const { outcome, file } = await make('rec', 4, 8);
    expect(outcome.plan).toMatchObject({ path: 'encode', reason: expect.stringMatching(/^the cut crosses a discontinuity/), frames: 120 });
    expect(outcome.variant).toBe('live');
    expect(await frames(file)).toEqual(range(120, 240));
    expect(decodeErrors(file)).toBe('');
  }, 60_000);

  it('stream-copies audio-only media', async () => {
    const { outcome, file } = await make('audio', 1, 4);
    expect(outcome.plan).toMatchObject({ path: 'audio', frames: 0 });
    expect(durationOf(file)).toBeCloseTo(3, 1);
  }, 60_000);

  it('makes a clip asset playable from its own source rendition, then its ladder', async () => {
    const assets = new FakeAssetProcessing();
    assets.addAsset('clip', { url: 'svc://assets/src', clip: { source_asset_id: 'src', start_time: 2.5, end_time: 9.2 } });
    const pipeline = new TranscodePipeline(assets, store, new MediaTools(config), config, { ...DEFAULT_PIPELINE_SETTINGS, preset: 'ultrafast' });
    const context = (phase: 'ingest' | 'ladder', inputKey: string | null) => ({
      jobId: 'job-clip',
      assetId: 'clip',
      attempt: 1,
      phase,
      inputKey,
      signal: new AbortController().signal,
      workDir: mkdtempSync(join(dir, 'job-')),
      checkpoint: () => Promise.resolve(),
      markPlayable: () => Promise.resolve(void assets.log.push('markPlayable')),
      onChild: () => undefined,
    });
    const ingested = await pipeline.run(context('ingest', null));
    expect(ingested).toEqual({ status: 'ladder', inputKey: 'assets/clip/transcoder/input' });
    expect(assets.log).toEqual(['getIngestSpec clip', 'recordProbe clip', 'markReady clip', 'markPlayable']);
    expect(assets.probes[0].duration).toBeCloseTo(6.7, 1);
    expect(assets.probes[0].non_standard_input_reasons).toEqual({});
    const source = join(dir, 'objects/assets/clip/hls/source/index.m3u8');
    expect(await frames(source)).toEqual(range(75, 276));
    expect(await pipeline.run(context('ladder', ingested.status === 'ladder' ? ingested.inputKey : null))).toEqual({ status: 'done' });
    const master = (await store.getBuffer('assets/clip/hls/master.m3u8')).toString();
    expect(master).toContain('180p/index.m3u8');
    expect(await frames(join(dir, 'objects/assets/clip/hls/180p/index.m3u8'))).toEqual(range(75, 276));
  }, 120_000);
});
