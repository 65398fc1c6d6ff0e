import {
  filterPackets,
  isVideoStreamType,
  ProgramSniffer,
  programStreamsOf,
  payloadOffset,
  pesPts,
  pidOf,
  pmtPidOf,
  programPids,
  readTimestamp,
  isRandomAccess,
  VideoPesFilter,
  videoPidOf,
  videoStreamOf,
} from './mpegts';
import { packet, pes, PAT, PMT, timestamp } from './testing/ts-packets';

describe('MPEG-TS reading', () => {
  it('reads the 33-bit timestamps of a PES header, past 2^32 too', () => {
    for (const value of [0, 126_000, 2 ** 32 + 12_345, 2 ** 33 - 1]) expect(readTimestamp(Buffer.from(timestamp(2, value)), 0)).toBe(value);
    expect(pesPts(Buffer.from(pes(900_000, 894_000)), 0)).toBe(900_000);
    // no PTS flag, and not a PES start at all
    expect(pesPts(Buffer.from([0, 0, 1, 0xe0, 0, 0, 0x80, 0x00, 0, 0, 0, 0, 0, 0]), 0)).toBeUndefined();
    expect(pesPts(Buffer.from([0x47, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]), 0)).toBeUndefined();
  });

  it('finds the payload after the header and any adaptation field (a PCR), and the PIDs of the program', () => {
    expect(payloadOffset(packet(0x100, [], {}))).toBe(4);
    expect(payloadOffset(packet(0x100, [], { adaptation: 7 }))).toBe(12);
    expect(pidOf(packet(0x1fff, []))).toBe(0x1fff);
    expect(pmtPidOf(PAT)).toBe(0x1000);
    expect(videoPidOf(PMT)).toBe(0x100);
    expect(videoStreamOf(PMT)).toEqual({ pid: 0x100, streamType: 0x1b });
    expect(programPids(Buffer.concat([packet(0x100, []), PAT, PMT]))).toEqual({ pmtPid: 0x1000, videoPid: 0x100 });
    expect(programPids(PAT)).toEqual({ pmtPid: 0x1000 });
  });
});

describe('VideoPesFilter', () => {
  /** Frames 0–3 (PTS 1000 apart, each PES over two TS packets) with audio between them. */
  const stream = [
    PAT,
    PMT,
    ...[0, 1, 2, 3].flatMap((frame) => [
      packet(0x100, pes(10_000 + frame * 1000, 8_000 + frame * 1000), { start: true, adaptation: frame === 0 ? 7 : undefined }),
      packet(0x100, [0xaa, frame]),
      packet(0x101, [0, 0, 1, 0xc0], { start: true }),
    ]),
  ];

  it('keeps the tables and whole video PES packets whose PTS is in the range, dropping audio', () => {
    const filter = new VideoPesFilter({ from: 11_000, to: 13_000 });
    const kept = filterPackets(Buffer.concat(stream), filter);
    expect(kept).toEqual(Buffer.concat([PAT, PMT, stream[5], stream[6], stream[8], stream[9]]));
    expect(filter.report()).toEqual({ pmtPid: 0x1000, videoPid: 0x100, keptFrames: 2 });
  });

  it('keeps nothing of the video before it has seen the tables, and reads them from any segment', () => {
    const filter = new VideoPesFilter({ from: 0, to: 100_000 });
    const late = filterPackets(Buffer.concat([stream[2], stream[3], PAT, PMT, stream[5]]), filter);
    expect(late).toEqual(Buffer.concat([PAT, PMT, stream[5]]));
    expect(filter.report().keptFrames).toBe(1);
  });

  it('refuses data that is not whole TS packets', () => {
    expect(() => filterPackets(Buffer.alloc(100), new VideoPesFilter({ from: 0, to: 1 }))).toThrow('not whole 188-byte packets');
    expect(() => filterPackets(Buffer.alloc(188), new VideoPesFilter({ from: 0, to: 1 }))).toThrow('no sync byte');
  });
});

describe('ProgramSniffer', () => {
  it('tells the program’s stream types once its PMT has passed, across chunk boundaries', () => {
    const sniffer = new ProgramSniffer();
    const stream = Buffer.concat([packet(0x100, []), PAT, PMT, packet(0x100, [])]);
    expect(sniffer.push(stream.subarray(0, 200))).toBeUndefined();
    expect(sniffer.push(stream.subarray(200, 400))).toBeUndefined(); // the PMT is not whole yet
    const streams = sniffer.push(stream.subarray(400));
    expect(streams).toEqual(programStreamsOf(PMT));
    expect(streams?.[0]).toEqual({ pid: 0x100, streamType: 0x1b });
    expect(isVideoStreamType(0x24)).toBe(true);
    expect(isVideoStreamType(0x0f)).toBe(false);
  });

  it('refuses what is not MPEG-TS', () => {
    expect(() => new ProgramSniffer().push(Buffer.alloc(188, 1))).toThrow('no sync byte');
  });
});

describe('isRandomAccess', () => {
  it("reads the adaptation field's random access indicator", () => {
    expect(isRandomAccess(packet(0x100, pes(90_000), { start: true, adaptation: 1, flags: 0x40 }))).toBe(true);
    expect(isRandomAccess(packet(0x100, pes(90_000), { start: true, adaptation: 1, flags: 0x10 }))).toBe(false);
    expect(isRandomAccess(packet(0x100, pes(90_000), { start: true, adaptation: 0 }))).toBe(false);
    expect(isRandomAccess(packet(0x100, pes(90_000), { start: true }))).toBe(false);
  });
});
