import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SAFE_FONT_PATH, testWatermark } from './ffmpeg-args';
import { MediaRunner } from '@platform/media';

/** What the resolved ffmpeg can do, as the argument builders need to know it. */
export interface FfmpegFeatures {
  /** `-var_stream_map … name:` and a master playlist for several variants work (ffmpeg ≥ 4.2). */
  legacyHlsMuxer: boolean;
  /** The test-asset watermark filter this ffmpeg can draw (see `testWatermark`). */
  watermark: string;
  /** How the watermark draws its text. */
  font: 'fontconfig' | 'file' | 'none';
  /** ffprobe reads MPEG-TS (the npm-shipped static ffprobe crashes on it: TS inputs then fail, CODECS is left out). */
  ffprobeReadsMpegts: boolean;
}

/** Font files tried when fontconfig finds no `Sans` (a static ffmpeg on a machine without its config). */
export const FONT_FILE_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf',
  '/usr/share/fonts/noto/NotoSans-Regular.ttf',
  '/Library/Fonts/Arial.ttf',
  '/System/Library/Fonts/Supplemental/Arial.ttf',
];

/**
 * Tries, with tiny lavfi inputs (tens of milliseconds each), what the argument builders rely on: a named
 * multi-variant HLS output with a master playlist, and drawtext with `font=Sans`, then with a font file.
 */
export async function detectFfmpegFeatures(runner: MediaRunner, workDir: string, fontFiles = FONT_FILE_CANDIDATES): Promise<FfmpegFeatures> {
  const dir = await mkdtemp(join(workDir, 'features-'));
  try {
    const legacyHlsMuxer = !(await succeeds(runner, namedVariantsArgs(dir)));
    const ffprobeReadsMpegts = await readsMpegts(runner, dir);
    return { legacyHlsMuxer, ffprobeReadsMpegts, ...(await watermarkFor(runner, fontFiles)) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function watermarkFor(runner: MediaRunner, fontFiles: string[]): Promise<Pick<FfmpegFeatures, 'watermark' | 'font'>> {
  if (await succeeds(runner, drawtextArgs(testWatermark('fontconfig')))) return { watermark: testWatermark('fontconfig'), font: 'fontconfig' };
  for (const fontFile of fontFiles.filter((f) => SAFE_FONT_PATH.test(f) && existsSync(f))) {
    const watermark = testWatermark({ fontFile });
    if (await succeeds(runner, drawtextArgs(watermark))) return { watermark, font: 'file' };
  }
  return { watermark: testWatermark('none'), font: 'none' };
}

/** Writes a tiny MPEG-TS file and asks ffprobe to read it. */
async function readsMpegts(runner: MediaRunner, dir: string): Promise<boolean> {
  const file = join(dir, 'probe.ts');
  const written = await succeeds(runner, [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'color=size=64x64:rate=25:duration=0.5',
    '-c:v',
    'mpeg2video',
    '-f',
    'mpegts',
    file,
  ]);
  if (!written) return false;
  try {
    await runner.probeJson(['-v', 'error', '-show_streams', '-print_format', 'json', file], { signal: AbortSignal.timeout(15_000) });
    return true;
  } catch {
    return false;
  }
}

async function succeeds(runner: MediaRunner, args: string[]): Promise<boolean> {
  try {
    await runner.ffmpeg(args, { signal: AbortSignal.timeout(15_000) });
    return true;
  } catch {
    return false;
  }
}

function namedVariantsArgs(dir: string): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'color=size=32x32:rate=10:duration=0.2',
    '-filter_complex',
    '[0:v]split=2[a][b]',
    '-map',
    '[a]',
    '-map',
    '[b]',
    '-c:v',
    'mpeg2video',
    '-f',
    'hls',
    '-hls_time',
    '1',
    '-hls_segment_filename',
    `${dir}/%v/s%d.ts`,
    '-master_pl_name',
    'master.m3u8',
    '-var_stream_map',
    'v:0,name:a v:1,name:b',
    `${dir}/%v/index.m3u8`,
  ];
}

function drawtextArgs(watermark: string): string[] {
  return ['-hide_banner', '-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'color=size=64x64:rate=10:duration=0.1', '-vf', watermark, '-f', 'null', '-'];
}
