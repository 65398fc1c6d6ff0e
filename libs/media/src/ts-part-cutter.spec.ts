import { pesDts, payloadOffset, pidOf } from './mpegts';
import { packet, pes, PAT, PMT } from './testing/ts-packets';
import { TsPartCutter } from './ts-part-cutter';

const FRAME = 3000; // 30 fps in 90 kHz ticks

/** A video frame (PES start on 0x100, a key frame sets the random access indicator), then one continuation packet. */
const frame = (n: number, key: boolean) => [
  packet(0x100, pes(126_000 + n * FRAME + 6000, 126_000 + n * FRAME), { start: true, adaptation: 1, flags: key ? 0x40 : 0 }),
  packet(0x100, [1, 2, 3]),
];
const audio = packet(0x101, [0, 0, 1, 0xc0], { start: true });
const dtsOfFirstFrame = (bytes: Buffer) => {
  for (let at = 0; at < bytes.length; at += 188) {
    const p = bytes.subarray(at, at + 188);
    if (pidOf(p) === 0x100 && (p[1] & 0x40) !== 0) return pesDts(p, payloadOffset(p));
  }
  return undefined;
};

describe('TsPartCutter', () => {
  it('cuts a part at the first frame 0.45 s after its start and before every key frame, each part led by the tables', () => {
    const stream = Buffer.concat([PAT, PMT, ...Array.from({ length: 35 }, (_, n) => [...frame(n, n % 30 === 0), audio]).flat()]);
    const cutter = new TsPartCutter(0.45);
    // fed in uneven chunks: packets split across pushes
    const parts = [];
    for (let at = 0; at < stream.length; at += 1000) parts.push(...cutter.push(stream.subarray(at, at + 1000)));
    const last = cutter.end();
    expect(parts.map((p) => [p.startDts, Number(p.duration.toFixed(4)), p.independent])).toEqual([
      [126_000, 0.4667, true], // frames 0–13: frame 14 is the first 0.45 s on
      [126_000 + 14 * FRAME, 0.4667, false], // 14–27
      [126_000 + 28 * FRAME, 0.0667, false], // 28–29, cut before the key frame 30
    ]);
    expect(last).toMatchObject({ startDts: 126_000 + 30 * FRAME, independent: true });
    expect(last!.duration).toBeCloseTo(5 / 30, 4); // frames 30–34 and one frame more
    // each part after the first starts with PAT and PMT, then its first frame; every packet is kept once
    for (const part of [...parts.slice(1), last!]) {
      expect(part.bytes.subarray(0, 376)).toEqual(Buffer.concat([PAT, PMT]));
      expect(dtsOfFirstFrame(part.bytes)).toBe(part.startDts);
    }
    const tables = 2 * 188 * 3;
    expect([...parts, last!].reduce((n, p) => n + p.bytes.length, 0)).toBe(stream.length + tables);
    expect(cutter.end()).toBeUndefined();
  });

  it('cuts a stream without a picture by time on its first stream, every part independent', () => {
    const audioOnlyPmt = packet(0x1000, [0, 0x02, 0xb0, 18, 0, 1, 0xc1, 0, 0, 0xe1, 0x01, 0xf0, 0, 0x0f, 0xe1, 0x01, 0xf0, 0, 0, 0, 0, 0], { start: true });
    const aacFrame = (n: number) => packet(0x101, [0, 0, 1, 0xc0, 0, 0, 0x80, 0x80, 5, ...pes(n * 1920).slice(9, 14)], { start: true });
    const cutter = new TsPartCutter(0.45);
    const parts = cutter.push(Buffer.concat([PAT, audioOnlyPmt, ...Array.from({ length: 50 }, (_, n) => aacFrame(n))]));
    expect(parts).toHaveLength(2); // frames 0–21 and 22–43 (1920 ticks each: 22 of them are the first 0.45 s)
    expect(parts.every((p) => p.independent && Math.abs(p.duration - (22 * 1920) / 90_000) < 1e-9)).toBe(true);
  });

  it('ends a part early rather than take it past the maximum (a low frame rate)', () => {
    const slow = (n: number) => packet(0x100, pes(n * 6000, n * 6000), { start: true, adaptation: 1, flags: n === 0 ? 0x40 : 0 }); // 15 fps
    const cutter = new TsPartCutter(0.22, 0.25);
    const parts = cutter.push(Buffer.concat([PAT, PMT, ...Array.from({ length: 10 }, (_, n) => slow(n))]));
    // 0.2 s held and a frame of 0.067 s more would make 0.267 s: cut at 0.2 s
    expect(parts.map((p) => Number(p.duration.toFixed(4)))).toEqual([0.2, 0.2, 0.2]);
  });

  it('refuses bytes that are not MPEG-TS', () => {
    expect(() => new TsPartCutter(0.45).push(Buffer.alloc(188, 1))).toThrow(/MPEG-TS/);
  });
});
