import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_WATERMARK, TEST_WATERMARK_NO_FONT } from './ffmpeg-args';
import { detectFfmpegFeatures } from './ffmpeg-features';
import { MediaProcessError, MediaRunner } from '@platform/media';

/** A runner whose ffmpeg fails every run whose arguments contain one of `refused`; ffprobe fails when `probeCrashes`. */
function fakeRunner(refused: string[], probeCrashes = false): MediaRunner & { runs: string[][] } {
  const runs: string[][] = [];
  return {
    runs,
    async ffmpeg(args: string[]) {
      runs.push(args);
      if (refused.some((r) => args.some((a) => a.includes(r)))) throw new MediaProcessError('ffmpeg', 1, null, 'refused');
    },
    async probeJson(args: string[]) {
      runs.push(['ffprobe', ...args]);
      if (probeCrashes) throw new MediaProcessError('ffprobe', null, 'SIGSEGV', '');
      return { streams: [] };
    },
  } as unknown as MediaRunner & { runs: string[][] };
}

describe('detectFfmpegFeatures', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'features-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a current ffmpeg: named variants, and drawtext through fontconfig', async () => {
    const runner = fakeRunner([]);
    expect(await detectFfmpegFeatures(runner, dir)).toEqual({ legacyHlsMuxer: false, ffprobeReadsMpegts: true, watermark: TEST_WATERMARK, font: 'fontconfig' });
    const [hls, ts, probe, drawtext] = runner.runs;
    expect(hls.slice(hls.indexOf('-var_stream_map'), hls.indexOf('-var_stream_map') + 2)).toEqual(['-var_stream_map', 'v:0,name:a v:1,name:b']);
    expect(hls).toContain('-master_pl_name');
    expect(ts.slice(-3)).toEqual(['-f', 'mpegts', expect.stringMatching(/probe\.ts$/)]);
    expect(probe).toEqual(['ffprobe', '-v', 'error', '-show_streams', '-print_format', 'json', ts[ts.length - 1]]);
    expect(drawtext).toContain(TEST_WATERMARK);
    expect(readdirSync(dir)).toEqual([]); // its scratch folder is removed
  });

  it('marks ffmpeg 4.1 (no `name:` in -var_stream_map) as the legacy muxer', async () => {
    expect((await detectFfmpegFeatures(fakeRunner(['name:a']), dir)).legacyHlsMuxer).toBe(true);
  });

  it('notices an ffprobe that crashes on MPEG-TS', async () => {
    expect((await detectFfmpegFeatures(fakeRunner([], true), dir)).ffprobeReadsMpegts).toBe(false);
  });

  it('falls back to the first font file that exists and works when fontconfig finds no Sans', async () => {
    const missing = join(dir, 'missing.ttf');
    const broken = join(dir, 'broken.ttf');
    const good = join(dir, 'good.ttf');
    writeFileSync(broken, 'x');
    writeFileSync(good, 'x');
    const runner = fakeRunner(['font=Sans', `fontfile=${broken}`]);
    const features = await detectFfmpegFeatures(runner, dir, [missing, broken, good]);
    expect(features).toEqual({
      legacyHlsMuxer: false,
      ffprobeReadsMpegts: true,
      watermark: TEST_WATERMARK.replace('font=Sans', `fontfile=${good}`),
      font: 'file',
    });
    expect(runner.runs.filter((r) => r.includes('-vf')).map((r) => r[r.indexOf('-vf') + 1].split(':')[0])).toEqual([
      'drawtext=font=Sans',
      `drawtext=fontfile=${broken}`,
      `drawtext=fontfile=${good}`,
    ]);
  });

  it('draws boxes only when no font works at all', async () => {
    const features = await detectFfmpegFeatures(fakeRunner(['drawtext']), dir, []);
    expect(features).toEqual({ legacyHlsMuxer: false, ffprobeReadsMpegts: true, watermark: TEST_WATERMARK_NO_FONT, font: 'none' });
  });
});
