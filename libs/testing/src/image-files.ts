/**
 * What tests need to know of made images without a decoder that handles them: the frames and delays of an
 * animated GIF (GIF89a) or animated WebP (RIFF/WEBP with ANIM/ANMF chunks; Debian's ffmpeg 5.1 cannot decode
 * animated WebP), and the size of a still image from its header.
 */

export interface AnimationInfo {
  width: number;
  height: number;
  /** Each frame's delay, milliseconds (GIF: centiseconds × 10). */
  delaysMs: number[];
  /** GIF: the NETSCAPE2.0 loop count (0 forever); WebP: ANIM's loop count. */
  loops?: number;
}

/** Frames, delays and size of an animated GIF, read from its blocks. */
export function gifAnimation(bytes: Buffer): AnimationInfo {
  if (bytes.subarray(0, 6).toString('latin1') !== 'GIF89a') throw new Error('not a GIF89a file');
  const width = bytes.readUInt16LE(6);
  const height = bytes.readUInt16LE(8);
  let at = 13;
  if (bytes[10] & 0x80) at += 3 * 2 ** ((bytes[10] & 0x07) + 1); // global colour table
  const delaysMs: number[] = [];
  let loops: number | undefined;
  let pendingDelay = 0;
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      const label = bytes[at + 1];
      if (label === 0xf9) pendingDelay = bytes.readUInt16LE(at + 4) * 10;
      if (label === 0xff && bytes.subarray(at + 3, at + 14).toString('latin1') === 'NETSCAPE2.0') loops = bytes.readUInt16LE(at + 16);
      at = skipSubBlocks(bytes, at + 2);
    } else if (block === 0x2c) {
      const packed = bytes[at + 9];
      at += 10;
      if (packed & 0x80) at += 3 * 2 ** ((packed & 0x07) + 1); // local colour table
      at = skipSubBlocks(bytes, at + 1); // after the LZW minimum code size
      delaysMs.push(pendingDelay);
      pendingDelay = 0;
    } else throw new Error(`unexpected GIF block 0x${block.toString(16)} at ${at}`);
  }
  return { width, height, delaysMs, ...(loops !== undefined ? { loops } : {}) };
}

function skipSubBlocks(bytes: Buffer, at: number): number {
  while (at < bytes.length && bytes[at] !== 0) at += bytes[at] + 1;
  return at + 1;
}

/** Frames, delays and canvas size of an animated WebP, read from its chunks. */
export function webpAnimation(bytes: Buffer): AnimationInfo {
  if (bytes.subarray(0, 4).toString('latin1') !== 'RIFF' || bytes.subarray(8, 12).toString('latin1') !== 'WEBP') throw new Error('not a WebP file');
  let width = 0;
  let height = 0;
  let loops: number | undefined;
  const delaysMs: number[] = [];
  for (let at = 12; at + 8 <= bytes.length;) {
    const type = bytes.subarray(at, at + 4).toString('latin1');
    const size = bytes.readUInt32LE(at + 4);
    const data = at + 8;
    if (type === 'VP8X') {
      width = bytes.readUIntLE(data + 4, 3) + 1;
      height = bytes.readUIntLE(data + 7, 3) + 1;
    } else if (type === 'ANIM') loops = bytes.readUInt16LE(data + 4);
    else if (type === 'ANMF') delaysMs.push(bytes.readUIntLE(data + 12, 3));
    at = data + size + (size % 2);
  }
  return { width, height, delaysMs, ...(loops !== undefined ? { loops } : {}) };
}

/** Whether a RIFF file (WebP) says its true size (browsers refuse one that does not, as a muxer writing to a pipe leaves it: 0). */
export function riffSizeRight(bytes: Buffer): boolean {
  return bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.readUInt32LE(4) === bytes.length - 8;
}

/** The kind of a still image from its first bytes. */
export function imageKind(bytes: Buffer): 'jpg' | 'png' | 'webp' | 'gif' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  if (bytes.subarray(1, 4).toString('latin1') === 'PNG') return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (bytes.subarray(0, 3).toString('latin1') === 'GIF') return 'gif';
  return undefined;
}
