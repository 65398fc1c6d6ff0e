import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveUri } from './assets';

const run = promisify(execFile);

/** One `#EXT-X-STREAM-INF` entry of a master playlist, its URI resolved. */
export interface Variant {
  url: string;
  /** Folder name of the variant (`1080p`, `source`). */
  name: string;
  width: number;
  height: number;
  bandwidth: number;
  averageBandwidth: number;
}

/** The variants a master playlist lists, in its order. */
export async function variantsOf(masterUrl: string): Promise<Variant[]> {
  const text = await (await fetch(masterUrl)).text();
  const lines = text.split('\n').map((l) => l.trim());
  const variants: Variant[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
    const uri = lines.slice(i + 1).find((l) => l !== '' && !l.startsWith('#'))!;
    const [, width, height] = /RESOLUTION=(\d+)x(\d+)/.exec(line) ?? [];
    const url = resolveUri(masterUrl, uri);
    variants.push({
      url,
      name: new URL(url).pathname.split('/').slice(-2)[0],
      width: Number(width),
      height: Number(height),
      bandwidth: Number(/(?:^|[:,])BANDWIDTH=(\d+)/.exec(line)?.[1]),
      averageBandwidth: Number(/AVERAGE-BANDWIDTH=(\d+)/.exec(line)?.[1]),
    });
  });
  return variants;
}

/**
 * The options x264 wrote into the SEI of the first frame of a variant (`x264 - core … - options: cabac=1
 * ref=1 … subme=2 … bitrate=800 …`), as name → value. The H.264 stream is copied out of MPEG-TS first
 * (TS packet headers would cut the text).
 */
export async function x264Options(ffmpeg: string, variantUrl: string): Promise<Record<string, string>> {
  const { stdout } = await run(ffmpeg, ['-v', 'error', '-i', variantUrl, '-map', '0:v:0', '-c', 'copy', '-frames:v', '1', '-f', 'h264', '-'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  const text = stdout.toString('latin1');
  const start = text.indexOf('x264 - core');
  if (start < 0) throw new Error('no x264 SEI in the first frame');
  const options = text.slice(start).split(' - options: ')[1].split('\0')[0];
  return Object.fromEntries(options.split(' ').map((pair) => pair.split('=') as [string, string]));
}
