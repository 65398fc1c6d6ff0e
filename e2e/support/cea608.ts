import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { FFMPEG } from './media';

const run = promisify(execFile);

/** A byte with CEA-608's odd parity bit. */
const withParity = (b: number): number => {
  let ones = 0;
  for (let i = 0; i < 7; i++) ones += (b >> i) & 1;
  return (b & 0x7f) | (ones % 2 === 0 ? 0x80 : 0);
};

/**
 * The CC1 byte pair of frame `frame`: pop-on captions "CAPTION 1", "CAPTION 2", … one every 2 s
 * (resume caption loading, preamble for row 15, the text, end of caption; erased just before the next).
 */
function captionPair(frame: number, fps: number): [number, number] | undefined {
  const period = 2 * fps;
  const index = Math.floor(frame / period);
  const at = frame % period;
  const text = `CAPTION ${index + 1}`;
  const chars: Array<[number, number]> = [];
  for (let i = 0; i < text.length; i += 2) chars.push([text.charCodeAt(i), i + 1 < text.length ? text.charCodeAt(i + 1) : 0x80]);
  const sequence: Array<[number, number]> = [[0x14, 0x20], [0x14, 0x20], [0x14, 0x70], [0x14, 0x70], ...chars, [0x14, 0x2f], [0x14, 0x2f]];
  if (at < sequence.length) return sequence[at];
  if (at === period - 4 || at === period - 3) return [0x14, 0x2c];
  return undefined;
}

/** An SEI NAL unit (Annex B) with ATSC A/53 cc_data: the CC1 pair (or padding) and an empty field-2 pair. */
function captionSei(pair: [number, number] | undefined): Buffer {
  const field1 = pair ? [0xfc, withParity(pair[0]), withParity(pair[1])] : [0xfc, 0x80, 0x80];
  const payload = [0xb5, 0x00, 0x31, 0x47, 0x41, 0x39, 0x34, 0x03, 0xc0 | 2, 0xff, ...field1, 0xf9, 0x80, 0x80, 0xff];
  const rbsp = [0x04, payload.length, ...payload, 0x80];
  const escaped: number[] = [];
  let zeros = 0;
  for (const b of rbsp) {
    if (zeros >= 2 && b <= 3) {
      escaped.push(3);
      zeros = 0;
    }
    escaped.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return Buffer.from([0, 0, 0, 1, 0x06, ...escaped]);
}

/** Puts a caption SEI before the first slice of every picture of an Annex-B H.264 stream (no B-frames). */
export function withCaptions(h264: Buffer, fps: number): Buffer {
  const starts: number[] = [];
  for (let i = 0; i + 3 < h264.length; i++) {
    if (h264[i] === 0 && h264[i + 1] === 0 && (h264[i + 2] === 1 || (h264[i + 2] === 0 && h264[i + 3] === 1))) {
      starts.push(i);
      i += 2;
    }
  }
  const parts: Buffer[] = [];
  let frame = 0;
  starts.forEach((start, n) => {
    const nal = h264.subarray(start, starts[n + 1] ?? h264.length);
    const header = nal[2] === 1 ? 3 : 4;
    const type = nal[header] & 0x1f;
    const firstSliceOfPicture = (type === 1 || type === 5) && (nal[header + 1] & 0x80) !== 0;
    if (firstSliceOfPicture) parts.push(captionSei(captionPair(frame++, fps)));
    parts.push(nal);
  });
  return Buffer.concat(parts);
}

/** A 640x360 30 fps H.264 elementary stream of `seconds` with CC1 captions, made once per folder. */
export async function captionedVideo(dir: string, seconds: number): Promise<string> {
  const plain = path.join(dir, 'plain.h264');
  const captioned = path.join(dir, 'captioned.h264');
  if (fs.existsSync(captioned)) return captioned;
  await run(FFMPEG, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=640x360:rate=30:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-bf',
    '0',
    '-g',
    '30',
    '-pix_fmt',
    'yuv420p',
    '-f',
    'h264',
    plain,
  ]);
  fs.writeFileSync(captioned, withCaptions(fs.readFileSync(plain), 30));
  return captioned;
}
