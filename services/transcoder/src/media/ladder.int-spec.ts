import { chooseLadder } from '@platform/media';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildKeyframeProbeArgs, buildLadderArgs, buildProbeArgs, buildRemuxArgs } from './ffmpeg-args';
import { FfprobePacket, summarizeKeyframes } from './keyframes';
import { interpretProbe } from './interpret-probe';
import { FfprobeOutput } from './probe.types';

const script = resolve(__dirname, '../../../../scripts/infra/ffmpeg.sh');

function tool(name: 'ffmpeg' | 'ffprobe'): string {
  try {
    return execFileSync('bash', [script, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    throw new Error(`scripts/infra/ffmpeg.sh ${name} failed, so ffmpeg cannot be tested: ${(err as Error).message}`, { cause: err });
  }
}

function probe(ffprobe: string, file: string): FfprobeOutput {
  return JSON.parse(execFileSync(ffprobe, buildProbeArgs(file), { encoding: 'utf8' })) as FfprobeOutput;
}

describe('buildLadderArgs with real ffmpeg', () => {
  let ffmpeg: string;
  let ffprobe: string;
  let dir: string;
  let source: string;

  beforeAll(() => {
    ffmpeg = tool('ffmpeg');
    ffprobe = tool('ffprobe');
    dir = mkdtempSync(join(tmpdir(), 'ladder-'));
    source = join(dir, 'source.mp4'); // 4 s 1280x720p30 H.264 + AAC
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=30',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      '4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      source,
    ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('encodes a 4 s 1280x720 clip into an HLS ladder whose variants have the chosen sizes', () => {
    const result = interpretProbe(probe(ffprobe, source));
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect(result.asset.standard).toBe(true);
    const ladder = chooseLadder(result.asset.video, result.asset.hasAudio);
    expect(ladder.video.map((r) => r.name)).toEqual(['720p', '540p', '360p', '270p']);

    const out = join(dir, 'hls');
    execFileSync(ffmpeg, buildLadderArgs(source, ladder, { outputDir: out, frameRate: 30, segmentSeconds: 2, preset: 'ultrafast' }), {
      stdio: ['ignore', 'ignore', 'pipe'],
    });

    const master = readFileSync(join(out, 'master.m3u8'), 'utf8');
    for (const rendition of ladder.video) {
      const playlist = join(out, rendition.name, 'index.m3u8');
      expect(master).toContain(`${rendition.name}/index.m3u8`);
      expect(master).toContain(`RESOLUTION=${rendition.width}x${rendition.height}`);
      expect(existsSync(playlist)).toBe(true);
      expect(readFileSync(playlist, 'utf8')).toContain('#EXT-X-ENDLIST');
      const read = probe(ffprobe, playlist);
      const video = read.streams?.find((s) => s.codec_type === 'video');
      const audio = read.streams?.find((s) => s.codec_type === 'audio');
      expect({ codec: video?.codec_name, width: video?.width, height: video?.height, audio: audio?.codec_name }).toEqual({
        codec: 'h264',
        width: rendition.width,
        height: rendition.height,
        audio: 'aac',
      });
      expect(Number(read.format?.duration)).toBeGreaterThan(3.5);
    }

    // Segments align across variants only if every variant has its key frames at the same times.
    const keyTimes = ladder.video.map((r) => {
      const { packets } = JSON.parse(execFileSync(ffprobe, buildKeyframeProbeArgs(join(out, r.name, 'index.m3u8')), { encoding: 'utf8' })) as {
        packets: FfprobePacket[];
      };
      expect(summarizeKeyframes(packets)?.maxIntervalSeconds).toBeCloseTo(2, 1);
      return packets.filter((p) => p.flags?.startsWith('K')).map((p) => Number(p.pts_time).toFixed(2));
    });
    expect(keyTimes[0].length).toBeGreaterThanOrEqual(2);
    for (const times of keyTimes) expect(times).toEqual(keyTimes[0]);
  }, 120_000);

  it('cuts a test asset to 10 s and burns a visible watermark', () => {
    const long = join(dir, 'long.mp4');
    execFileSync(ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=426x240:rate=25',
      '-t',
      '12',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      long,
    ]);
    const result = interpretProbe(probe(ffprobe, long));
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    const ladder = chooseLadder(result.asset.video, result.asset.hasAudio);
    expect(ladder).toEqual({ video: [{ name: '240p', width: 426, height: 240, videoBitrate: 300_000 }] });

    const centre = (outputDir: string): Buffer => {
      const gray = execFileSync(ffmpeg, [
        '-v',
        'error',
        '-i',
        join(outputDir, '240p', 'index.m3u8'),
        '-ss',
        '1',
        '-frames:v',
        '1',
        '-vf',
        'crop=200:60:113:90',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        '-',
      ]);
      expect(gray.length).toBe(200 * 60);
      return gray;
    };
    const plain = join(dir, 'plain');
    const test = join(dir, 'test');
    execFileSync(ffmpeg, buildLadderArgs(long, ladder, { outputDir: plain, frameRate: 25, preset: 'ultrafast' }), { stdio: 'ignore' });
    execFileSync(ffmpeg, buildLadderArgs(long, ladder, { outputDir: test, frameRate: 25, preset: 'ultrafast', test: true }), { stdio: 'ignore' });

    expect(Number(probe(ffprobe, join(plain, '240p', 'index.m3u8')).format?.duration)).toBeGreaterThan(11.5);
    const testDuration = Number(probe(ffprobe, join(test, '240p', 'index.m3u8')).format?.duration);
    expect(testDuration).toBeGreaterThan(9.5);
    expect(testDuration).toBeLessThanOrEqual(10.1);
    const a = centre(plain);
    const b = centre(test);
    let difference = 0;
    for (let i = 0; i < a.length; i++) difference += Math.abs(a[i] - b[i]);
    expect(difference / a.length).toBeGreaterThan(20); // the watermark box changes the centre, not just encoder noise
  }, 120_000);

  it('encodes an audio-only input into one AAC variant', () => {
    const tone = join(dir, 'tone.m4a');
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '4', '-c:a', 'aac', tone]);
    const result = interpretProbe(probe(ffprobe, tone));
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect(result.asset.resolution_tier).toBe('audio-only');
    const out = join(dir, 'audio');
    execFileSync(ffmpeg, buildLadderArgs(tone, chooseLadder(result.asset.video, result.asset.hasAudio), { outputDir: out, frameRate: -1 }), {
      stdio: 'ignore',
    });
    expect(readFileSync(join(out, 'master.m3u8'), 'utf8')).toContain('audio/index.m3u8');
    const read = probe(ffprobe, join(out, 'audio', 'index.m3u8'));
    expect(read.streams?.map((s) => `${s.codec_type}:${s.codec_name}:${s.channels}`)).toEqual(['audio:aac:2']);
  }, 60_000);

  it('remuxes a standard input into a playable source rendition without re-encoding', () => {
    const out = join(dir, 'remux');
    execFileSync(ffmpeg, buildRemuxArgs(source, { outputDir: out, hasVideo: true, hasAudio: true, segmentSeconds: 2 }), { stdio: 'ignore' });
    const read = probe(ffprobe, join(out, 'source', 'index.m3u8'));
    expect(read.streams?.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['video:h264', 'audio:aac']);
    expect(read.streams?.[0]).toMatchObject({ width: 1280, height: 720 });
  }, 60_000);
});
