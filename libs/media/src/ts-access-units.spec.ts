import { packet, pes, PAT, PMT } from './testing/ts-packets';
import { cutPicture, cutPictures, firstPts, H264_STREAM_TYPE, nalHeaders, segmentVideo, shownAt } from './ts-access-units';

const FRAME = 3000; // 30 fps in 90 kHz ticks
const START = 126_000; // ffmpeg's muxers start at 1.4 s

/** NAL headers: IDR slice (nal_ref_idc 3), reference P and B slices, a non-reference B slice, SPS, PPS. */
const IDR = 0x65;
const P = 0x41;
const B_REF = 0x21;
const B = 0x01;
const SPS = 0x67;
const PPS = 0x68;

/** One picture's PES: the access unit delimiter (from `pes`), then its NAL units, each behind a start code. */
function picture(frame: number, decodeOrder: number, nals: number[], extra: number[] = []): Buffer[] {
  const body = nals.flatMap((nal) => [0, 0, 1, nal, 0x88, frame]);
  return [
    packet(0x100, [...pes(START + frame * FRAME, START - 2 * FRAME + decodeOrder * FRAME), 0xf0, ...body], { start: true }),
    ...(extra.length ? [packet(0x100, extra)] : []),
  ];
}

/**
 * Two GOPs in decoding order, x264's pattern with a B pyramid: I0 P4 B2(ref) B1 B3, then IDR5 P6; audio
 * packets between them and the first picture spread over two TS packets.
 */
const SEGMENT = Buffer.concat([
  PAT,
  PMT,
  ...picture(0, 0, [SPS, PPS, IDR], [0xaa, 0xbb]),
  packet(0x101, [0, 0, 1, 0xc0], { start: true }),
  ...picture(4, 1, [P]),
  ...picture(2, 2, [B_REF]),
  ...picture(1, 3, [B]),
  ...picture(3, 4, [B]),
  ...picture(5, 5, [SPS, PPS, IDR]),
  ...picture(6, 6, [P]),
]);
const at = (frame: number) => START + frame * FRAME;

describe('segmentVideo', () => {
  const video = segmentVideo(SEGMENT);

  it('reads each picture of the video PID in decoding order with its timestamps and kind, and nothing of the audio', () => {
    expect(video.streamType).toBe(H264_STREAM_TYPE);
    expect(video.units.map((u) => (u.pts - START) / FRAME)).toEqual([0, 4, 2, 1, 3, 5, 6]);
    expect(video.units.map((u) => (u.dts - START) / FRAME)).toEqual([-2, -1, 0, 1, 2, 3, 4]);
    expect(video.units.map((u) => u.idr)).toEqual([true, false, false, false, false, true, false]);
    expect(video.units.map((u) => u.reference)).toEqual([true, true, true, false, false, true, true]);
    expect(firstPts(video.units)).toBe(START);
  });

  it('keeps a picture whole across its TS packets: the PES payload from the delimiter on', () => {
    const first = video.units[0].data;
    expect(nalHeaders(first)).toEqual([0x09, SPS, PPS, IDR]);
    // the second packet's payload follows the first's (whose 0xff stuffing is part of this hand-made payload)
    expect([...first.subarray(first.length - 184)]).toEqual([0xaa, 0xbb, ...Array<number>(182).fill(0xff)]);
  });

  it('counts every picture of another codec as a reference and none as an IDR (it is then decoded whole)', () => {
    const hevcPmt = Buffer.from(PMT);
    hevcPmt[4 + 13] = 0x24; // the stream type of the first elementary stream
    const hevc = segmentVideo(Buffer.concat([PAT, hevcPmt, SEGMENT.subarray(2 * 188)]));
    expect(hevc.streamType).toBe(0x24);
    expect(hevc.units.every((u) => u.reference && !u.idr)).toBe(true);
    expect(cutPicture(hevc.units, at(3))).toBeUndefined();
  });

  it('refuses data that is not whole TS packets, or has no video', () => {
    expect(() => segmentVideo(Buffer.alloc(100))).toThrow('not whole 188-byte packets');
    expect(() => segmentVideo(Buffer.concat([PAT]))).toThrow('the segment has no video stream');
  });
});

describe('cutPictures', () => {
  const { units } = segmentVideo(SEGMENT);
  const decodeOrder = (cut: { stream: Buffer }) =>
    nalHeaders(cut.stream)
      .map((h, i, all) => (all[i - 1] === 0x09 ? h : undefined))
      .filter((h) => h !== undefined);

  it('takes the picture shown at a time: the last presented at or before it, else the first', () => {
    expect(units[shownAt(units, at(3))].pts).toBe(at(3));
    expect(units[shownAt(units, at(3) + FRAME / 2)].pts).toBe(at(3));
    expect(units[shownAt(units, at(0) - 1)].pts).toBe(at(0));
    expect(units[shownAt(units, at(100))].pts).toBe(at(6));
  });

  it('feeds the IDR, the references before the picture and the picture, leaving out pictures nothing refers to', () => {
    const cut = cutPicture(units, at(3))!;
    // I0 P4 B2 B3 in decoding order; B1 (no reference) left out
    expect(decodeOrder(cut)).toEqual([SPS, P, B_REF, B]);
    expect(cut.stream).toEqual(Buffer.concat([units[0].data, units[1].data, units[2].data, units[4].data]));
    // presented: I0 B2 B3 P4
    expect(cut).toMatchObject({ outputIndexes: [2], pts: [at(3)], decoded: 4 });
    expect(cutPicture(units, at(0))).toMatchObject({ outputIndexes: [0], decoded: 1 });
    expect(cutPicture(units, at(6))).toMatchObject({ outputIndexes: [1], pts: [at(6)], decoded: 2 });
  });

  it('decodes a run of pictures from one IDR once, and each IDR starts a new run', () => {
    const cuts = cutPictures([at(1), at(4), at(6)].map((pts) => ({ units, pts })))!;
    // run 1: I0 P4 B2 B1 (B1 wanted) → presented I0 B1 B2 P4; run 2: IDR5 P6
    expect(cuts.stream).toEqual(Buffer.concat([0, 1, 2, 3, 5, 6].map((i) => units[i].data)));
    expect(cuts).toMatchObject({ outputIndexes: [1, 3, 5], pts: [at(1), at(4), at(6)], decoded: 6 });
  });

  it('starts a new run for another segment even from the same IDR', () => {
    const again = segmentVideo(SEGMENT).units;
    const cuts = cutPictures([
      { units, pts: at(0) },
      { units: again, pts: at(2) },
    ])!;
    expect(cuts).toMatchObject({ outputIndexes: [0, 2], decoded: 4 });
  });

  it('gives up when no IDR precedes the picture in its segment', () => {
    expect(cutPicture(units.slice(1), at(3))).toBeUndefined();
    expect(cutPictures([{ units: [], pts: 0 }])).toBeUndefined();
  });
});
