import { TS_PACKET_SIZE } from '../mpegts';

/** MPEG-TS built by hand for the unit tests of this library. */

/** A 188-byte TS packet: header, optional adaptation field of `adaptation` bytes (its first, the flags, `flags`), payload, 0xff stuffing. */
export function packet(
  pid: number,
  payload: number[],
  { start = false, adaptation, flags }: { start?: boolean; adaptation?: number; flags?: number } = {},
): Buffer {
  const p = Buffer.alloc(TS_PACKET_SIZE, 0xff);
  p[0] = 0x47;
  p[1] = (start ? 0x40 : 0) | (pid >> 8);
  p[2] = pid & 0xff;
  p[3] = adaptation === undefined ? 0x10 : 0x30;
  let at = 4;
  if (adaptation !== undefined) {
    p[4] = adaptation;
    if (flags !== undefined && adaptation > 0) p[5] = flags;
    at = 5 + adaptation;
  }
  Buffer.from(payload).copy(p, at);
  return p;
}

/** The 5 bytes of a PTS/DTS with the given 4-bit prefix. */
export function timestamp(prefix: number, value: number): number[] {
  const high = Math.floor(value / 2 ** 30) & 0x7;
  const mid = Math.floor(value / 2 ** 15) & 0x7fff;
  const low = value & 0x7fff;
  return [(prefix << 4) | (high << 1) | 1, mid >> 7, ((mid & 0x7f) << 1) | 1, low >> 7, ((low & 0x7f) << 1) | 1];
}

/** The start of a video PES (stream id 0xe0) with PTS and DTS. */
export const pes = (pts: number, dts = pts) => [0, 0, 1, 0xe0, 0, 0, 0x80, 0xc0, 10, ...timestamp(3, pts), ...timestamp(1, dts), 0, 0, 0, 1, 0x09];

/** A PAT naming program 1 on PID 0x1000, and a PMT with H.264 on 0x100 and AAC on 0x101 (CRCs not checked). */
export const PAT = packet(0, [0, 0x00, 0xb0, 13, 0, 1, 0xc1, 0, 0, 0, 1, 0xf0, 0x00, 0, 0, 0, 0], { start: true });
export const PMT = packet(
  0x1000,
  [0, 0x02, 0xb0, 23, 0, 1, 0xc1, 0, 0, 0xe1, 0x00, 0xf0, 0, 0x1b, 0xe1, 0x00, 0xf0, 0, 0x0f, 0xe1, 0x01, 0xf0, 0, 0, 0, 0, 0],
  {
    start: true,
  },
);
