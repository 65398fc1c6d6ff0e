import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { streamUrl } from './assets';
import { FFMPEG } from './media';

export type Colour = 'red' | 'green' | 'blue' | 'magenta' | 'other';

/** Fetches a live playback id's segments as they appear: each call downloads those not fetched yet into `dir`. */
export class LiveSegments {
  private readonly fetched = new Set<string>();

  constructor(
    private readonly playbackId: string,
    private readonly dir: string,
  ) {}

  async next(): Promise<string[]> {
    const master = await (await fetch(streamUrl(`${this.playbackId}.m3u8`))).text();
    const variant = master.split('\n').find((l) => l.startsWith(`${this.playbackId}/`));
    if (!variant) return [];
    const media = await (await fetch(streamUrl(variant))).text();
    const base = streamUrl(variant).replace(/[^/]*$/, '');
    const files: string[] = [];
    for (const line of media.split('\n').filter((l) => l && !l.startsWith('#'))) {
      const url = new URL(line, base).toString();
      if (this.fetched.has(url)) continue;
      this.fetched.add(url);
      const file = path.join(this.dir, `${this.playbackId}-${this.fetched.size}.ts`);
      fs.writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
      files.push(file);
    }
    return files;
  }
}

/** The colour of a 16×16 patch centred on (x, y) of a file's first frame. */
export function colourAt(file: string, x: number, y: number): Colour {
  const raw = execFileSync(FFMPEG, [
    '-v',
    'error',
    '-i',
    file,
    '-frames:v',
    '1',
    '-vf',
    `crop=16:16:${Math.round(x - 8)}:${Math.round(y - 8)},scale=1:1`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  return colourOf([...raw.subarray(0, 3)] as [number, number, number]);
}

export function colourOf([r, g, b]: [number, number, number]): Colour {
  if (r > 180 && g < 80 && b < 80) return 'red';
  if (g > 180 && r < 80 && b < 80) return 'green';
  if (b > 180 && r < 80 && g < 80) return 'blue';
  if (r > 180 && b > 180 && g < 80) return 'magenta';
  return 'other';
}

/** The mean level (dB) of a file's audio in a narrow band around `hz` (two Q=8 band-passes); −200 when silent. */
export function bandLevel(file: string, hz: number): number {
  const filter = `bandpass=f=${hz}:t=q:w=8,bandpass=f=${hz}:t=q:w=8,volumedetect`;
  const out = spawnSync(FFMPEG, ['-hide_banner', '-i', file, '-vn', '-af', filter, '-f', 'null', '-'], { encoding: 'utf8' });
  return Number(/mean_volume: (-?[\d.]+) dB/.exec(out.stderr)?.[1] ?? -200);
}
