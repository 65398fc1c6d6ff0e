import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Pixel box: left/top edge, size. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One decoded frame (RGB, 3 bytes a pixel) of a file or URL, `atSeconds` in (default 1 s), at its own size. */
export async function decodeFrame(ffmpeg: string, input: string, size: { width: number; height: number }, atSeconds = 1): Promise<Buffer> {
  const { stdout } = await run(ffmpeg, ['-v', 'error', '-ss', String(atSeconds), '-i', input, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    maxBuffer: size.width * size.height * 3 + 1024,
  });
  if (stdout.length !== size.width * size.height * 3) throw new Error(`expected a ${size.width}x${size.height} frame, got ${stdout.length} bytes`);
  return stdout;
}

/** The smallest box holding every pixel `matches` accepts; undefined when none does. */
export function boundingBox(rgb: Buffer, width: number, matches: (r: number, g: number, b: number) => boolean): PixelBox | undefined {
  let left = Infinity;
  let top = Infinity;
  let right = -1;
  let bottom = -1;
  for (let i = 0; i + 2 < rgb.length; i += 3) {
    if (!matches(rgb[i], rgb[i + 1], rgb[i + 2])) continue;
    const pixel = i / 3;
    const x = pixel % width;
    const y = Math.floor(pixel / width);
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  }
  return right < 0 ? undefined : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/** Mean colour of a box of the frame. */
export function meanColour(rgb: Buffer, width: number, box: PixelBox): [number, number, number] {
  const sum = [0, 0, 0];
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) for (let c = 0; c < 3; c++) sum[c] += rgb[(y * width + x) * 3 + c];
  }
  const n = box.width * box.height;
  return [sum[0] / n, sum[1] / n, sum[2] / n];
}

/** Integrated loudness (LUFS) of the first audio stream, as ffmpeg's EBU R128 meter (ebur128) measures it. */
export async function integratedLoudness(ffmpeg: string, input: string): Promise<number> {
  const { stderr } = await run(ffmpeg, ['-hide_banner', '-nostats', '-i', input, '-map', '0:a:0', '-af', 'ebur128', '-f', 'null', '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const match = /Integrated loudness:\s+I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary);
  if (!match) throw new Error(`ebur128 printed no integrated loudness: ${summary.slice(0, 300)}`);
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}
