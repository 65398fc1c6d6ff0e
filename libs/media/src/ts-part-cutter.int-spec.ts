import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TsPart, TsPartCutter } from './ts-part-cutter';

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

/** ffmpeg's MPEG-TS of 4 s of 30 fps H.264 with a key frame every second, and AAC, cut as it is written. */
async function cutFfmpegOutput(extra: string[]): Promise<TsPart[]> {
  const cutter = new TsPartCutter(0.45);
  const parts: TsPart[] = [];
  const args = ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30', '-f', 'lavfi', '-i', 'sine', '-t', '4'];
  const child = spawn(FFMPEG, [...args, '-c:v', 'libx264', '-g', '30', ...extra, '-c:a', 'aac', '-f', 'mpegts', 'pipe:1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.on('data', (chunk: Buffer) => parts.push(...cutter.push(chunk)));
  await new Promise((resolve) => child.once('close', resolve));
  const last = cutter.end();
  return last ? [...parts, last] : parts;
}

const frames = (file: string) =>
  execFileSync(FFPROBE, ['-v', 'error', '-select_streams', 'v', '-show_entries', 'frame=key_frame', '-of', 'csv=p=0', file], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.split(',')[0])
    .filter((k) => k !== '');

describe('TsPartCutter on ffmpeg output', () => {
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ts-parts-'))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['without B-frames', ['-tune', 'zerolatency']],
    ['with B-frames (decode order)', ['-bf', '2']],
  ])('cuts %s into parts of at most 0.5 s, a key frame leading every independent part, nothing lost', async (_name, extra) => {
    const parts = await cutFfmpegOutput(extra);
    expect(parts.filter((p) => p.independent)).toHaveLength(4); // a key frame each second
    expect(parts.every((p) => p.duration > 0 && p.duration <= 0.5)).toBe(true);
    expect(parts.reduce((s, p) => s + p.duration, 0)).toBeCloseTo(4, 1);
    const whole = path.join(dir, 'whole.ts');
    fs.writeFileSync(whole, Buffer.concat(parts.map((p) => p.bytes)));
    expect(frames(whole)).toHaveLength(120);
    const independent = parts.find((p, i) => i > 0 && p.independent)!;
    const file = path.join(dir, 'part.ts');
    fs.writeFileSync(file, independent.bytes);
    expect(frames(file)[0]).toBe('1');
  });
});
