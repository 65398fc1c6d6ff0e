import { chooseLadder } from '@platform/media';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { boundingBox, decodeFrame, integratedLoudness } from '@platform/testing';
import { buildLadderArgs, buildProbeArgs, buildRemuxArgs } from './ffmpeg-args';
import { buildLoudnessMeasureArgs, LOUDNESS_TARGET, loudnormFilter, parseLoudnormMeasurement } from './loudness';
import { overlayPlacement } from './overlay';
import { FfprobeOutput } from './probe.types';

/** The watermark and loudness arguments run by the real ffmpeg: the mark is where the geometry says, the loudness at the target. */

const script = resolve(__dirname, '../../../../scripts/infra/ffmpeg.sh');
const tool = (name: 'ffmpeg' | 'ffprobe') => execFileSync('bash', [script, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
/** Flat blue-grey: no pixel of it is anywhere near the watermark's red. */
const BASE = '0x204080';
const isRed = (r: number, g: number, b: number) => r > 160 && g < 100 && b < 100;

describe('watermark and loudness normalization with real ffmpeg', () => {
  let ffmpeg: string;
  let ffprobe: string;
  let dir: string;

  const make = (name: string, args: string[]) => {
    execFileSync(ffmpeg, ['-v', 'error', '-y', ...args, join(dir, name)]);
    return join(dir, name);
  };
  const measureFilter = (input: string) => {
    const first = spawnSync(ffmpeg, buildLoudnessMeasureArgs(input), { encoding: 'utf8' });
    const measured = parseLoudnormMeasurement(first.stderr);
    if (!measured) throw new Error('silent');
    return { measured, filter: loudnormFilter(measured) };
  };
  const probe = (file: string) => JSON.parse(execFileSync(ffprobe, buildProbeArgs(file), { encoding: 'utf8' })) as FfprobeOutput;

  beforeAll(() => {
    ffmpeg = tool('ffmpeg');
    ffprobe = tool('ffprobe');
    dir = mkdtempSync(join(tmpdir(), 'ladder-options-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('burns the watermark into every variant where overlayPlacement puts it, and brings quiet audio to -23 LUFS in each', async () => {
    // 3 s of flat colour, a 440 Hz tone 25 dB quieter than ffmpeg's default
    const source = make('quiet.mp4', [
      ...['-f', 'lavfi', '-i', `color=c=${BASE}:s=640x360:r=25:d=3`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=3,volume=-25dB'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2'],
    ]);
    const image = make('mark.png', ['-f', 'lavfi', '-i', 'color=c=red:s=300x150', '-frames:v', '1']);
    const { measured, filter } = measureFilter(source);
    expect(measured.integrated).toBeLessThan(-35);

    const settings = { vertical_align: 'bottom', vertical_margin: '10%', horizontal_align: 'right', horizontal_margin: '5%', width: '25%' };
    const ladder = chooseLadder({ width: 640, height: 360, frameRate: 25 }, true);
    expect(ladder.video.map((r) => r.name)).toEqual(['360p', '270p']);
    const out = join(dir, 'hls');
    const overlay = { image, imageSize: { width: 300, height: 150 }, settings };
    execFileSync(ffmpeg, buildLadderArgs(source, ladder, { outputDir: out, frameRate: 25, preset: 'ultrafast', overlays: [overlay], audioFilter: filter }), {
      stdio: 'ignore',
    });

    for (const rendition of ladder.video) {
      const playlist = join(out, rendition.name, 'index.m3u8');
      const frame = await decodeFrame(ffmpeg, playlist, rendition);
      const found = boundingBox(frame, rendition.width, isRed)!;
      // what the geometry says for the top rendition, scaled to this one (within chroma-subsampling and scaling blur)
      const expected = overlayPlacement(settings, overlay.imageSize, ladder.video[0]);
      const scale = rendition.width / ladder.video[0].width;
      expect(Math.abs(found.x - expected.x * scale)).toBeLessThanOrEqual(2);
      expect(Math.abs(found.y - expected.y * scale)).toBeLessThanOrEqual(2);
      expect(Math.abs(found.width - expected.width * scale)).toBeLessThanOrEqual(2);
      expect(Math.abs(found.height - expected.height * scale)).toBeLessThanOrEqual(2);
      expect(Math.abs((await integratedLoudness(ffmpeg, playlist)) - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
    }
    // on 640x360: 25 % of the width = 160x80, 5 % (32 px) from the right, 10 % (36 px) from the bottom
    expect(overlayPlacement(settings, overlay.imageSize, ladder.video[0])).toEqual({ x: 448, y: 244, width: 160, height: 80, opacity: 1 });
  });

  it('normalizes loud audio in the quick source rendition, the video still stream-copied', async () => {
    const source = make('loud.mp4', [
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=3,volume=15dB'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-c:a', 'aac', '-ac', '2'],
    ]);
    const { measured, filter } = measureFilter(source);
    expect(measured.integrated).toBeGreaterThan(-10);
    const out = join(dir, 'remux');
    execFileSync(ffmpeg, buildRemuxArgs(source, { outputDir: out, hasVideo: true, hasAudio: true, audioFilter: filter }), { stdio: 'ignore' });
    const playlist = join(out, 'source', 'index.m3u8');
    expect(Math.abs((await integratedLoudness(ffmpeg, playlist)) - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
    const [video, audio] = ['video', 'audio'].map((type) => probe(join(out, 'source', 'segment_000.ts')).streams!.find((s) => s.codec_type === type)!);
    expect(video).toMatchObject({ codec_name: 'h264', profile: probe(source).streams![0].profile, width: 320, height: 180 });
    expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
  });

  it('normalizes an audio-only ladder', async () => {
    const source = make('speech.m4a', ['-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=48000:duration=3,volume=-20dB', '-c:a', 'aac']);
    const { filter } = measureFilter(source);
    const out = join(dir, 'audio');
    const ladder = chooseLadder(undefined, true);
    execFileSync(ffmpeg, buildLadderArgs(source, ladder, { outputDir: out, frameRate: -1, audioFilter: filter }), { stdio: 'ignore' });
    expect(Math.abs((await integratedLoudness(ffmpeg, join(out, 'audio', 'index.m3u8'))) - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
  });
});
