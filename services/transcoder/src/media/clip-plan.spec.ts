import { chooseSegments, ClipPlanError, ClipSource, frameTicks, planClip, planSeconds, ptsAt, SpanMedia, VideoPacket } from './clip-plan';

const P0 = 126_000;
const F = 3000; // a frame at 30 fps in 90 kHz ticks
const pts = (frame: number) => P0 + frame * F;

/**
 * `gopCount` closed GOPs of `length` frames as x264 makes them with B-frames: decode order I, P, B, B, …
 * (I at frame k, then P k+3, B k+1, B k+2, P k+6 …), DTS one frame behind, `segmentFrames` frames a segment.
 */
function closedGops(gopCount: number, length = 6, segmentFrames = 12, origin = P0): VideoPacket[] {
  const packets: VideoPacket[] = [];
  for (let g = 0; g < gopCount; g++) {
    const k = g * length;
    const order = [0];
    for (let i = 1; i < length; i += 3) order.push(...[i + 2, i, i + 1].filter((f) => f < length));
    for (const f of order) packets.push({ pts: origin + (k + f) * F, dts: 0, key: f === 0, segment: Math.floor((k + f) / segmentFrames) });
  }
  return packets.map((p, i) => ({ ...p, dts: origin + (i - 1) * F }));
}

const span = (video: VideoPacket[], fields: Partial<SpanMedia> = {}): SpanMedia => ({
  segments: [0, 1],
  startSeconds: 0,
  endSeconds: 0.8,
  anchorPts: P0,
  video,
  ...fields,
});
const source = (fields: Partial<ClipSource> = {}): ClipSource => ({
  spans: [span(closedGops(4))],
  video: { codec: 'h264', profile: 'High', pixFmt: 'yuv420p', fieldOrder: 'progressive' },
  hasAudio: true,
  canSmartCut: true,
  ...fields,
});
const at = (frame: number) => frame / 30;

describe('chooseSegments', () => {
  const segments = [4, 4, 4, 2.5].map((duration, i) => ({ uri: `s${i}.ts`, duration, discontinuity: i === 3 }));

  it('takes the segments the cut overlaps, with their start in seconds', () => {
    expect(chooseSegments(segments, 5, 9)).toEqual([{ segments: [1, 2], startSeconds: 4, endSeconds: 12 }]);
    expect(chooseSegments(segments, 0, 4.5)).toEqual([{ segments: [0, 1], startSeconds: 0, endSeconds: 8 }]);
  });

  it('takes a neighbour within 50 ms of the cut, since #EXTINF is rounded', () => {
    expect(chooseSegments(segments, 4.03, 7.97)).toEqual([{ segments: [0, 1, 2], startSeconds: 0, endSeconds: 12 }]);
    expect(chooseSegments(segments, 4.06, 7.94)).toEqual([{ segments: [1], startSeconds: 4, endSeconds: 8 }]);
  });

  it('starts a new span at each discontinuity', () => {
    expect(chooseSegments(segments, 10, 14)).toEqual([
      { segments: [2], startSeconds: 8, endSeconds: 12 },
      { segments: [3], startSeconds: 12, endSeconds: 14.5 },
    ]);
    expect(chooseSegments(segments, 20, 30)).toEqual([]);
  });
});

describe('planClip', () => {
  it('copies the whole GOPs and re-encodes the partial GOP at each edge, with decode times running on', () => {
    const plan = planClip(source(), at(2), at(21));
    expect(plan).toEqual({
      path: 'smart',
      reason: 'H.264 with closed GOPs: whole GOPs copied, the partial GOP at each edge re-encoded',
      spans: [{ span: 0, range: { from: pts(2), to: pts(21) } }],
      head: { segment: 0, range: { from: pts(2), to: pts(6) }, gop: { from: pts(0), to: pts(6) }, dtsDelay: F },
      copy: { from: pts(6), to: pts(18) },
      tail: { segment: 1, range: { from: pts(18), to: pts(21) }, gop: { from: pts(18), to: Number.MAX_SAFE_INTEGER }, dtsDelay: F },
      frames: 19,
    });
    expect(planSeconds(plan)).toEqual({ copied: 12 / 30, encoded: 7 / 30 });
    // a tail GOP with a key frame after it is decoded up to that key frame only
    expect(planClip(source(), at(2), at(15)).tail).toEqual({
      segment: 1,
      range: { from: pts(12), to: pts(15) },
      gop: { from: pts(12), to: pts(18) },
      dtsDelay: F,
    });
  });

  it('remuxes a cut on GOP boundaries', () => {
    expect(planClip(source(), at(6), at(18))).toMatchObject({
      path: 'smart',
      reason: 'both ends fall on GOP boundaries: a remux',
      copy: { from: pts(6), to: pts(18) },
      head: undefined,
      tail: undefined,
      frames: 12,
    });
  });

  it('copies the last GOP whole when the cut runs to the end of the media', () => {
    const plan = planClip(source(), at(16), at(24));
    expect(plan).toMatchObject({ path: 'smart', head: { range: { from: pts(16), to: pts(18) } }, copy: { from: pts(18), to: pts(24) }, frames: 8 });
    expect(plan.tail).toBeUndefined();
  });

  it('takes the frame shown nearest each requested time', () => {
    expect(planClip(source(), 2.4 / 30, 20.4 / 30).spans[0].range).toEqual({ from: pts(2), to: pts(20) });
    expect(planClip(source(), 2.6 / 30, 20.6 / 30).spans[0].range).toEqual({ from: pts(3), to: pts(21) });
  });

  it('places a span by its first segment’s start in the source and its first frame', () => {
    const later = source({ spans: [span(closedGops(4), { startSeconds: 8, endSeconds: 8.8, anchorPts: P0 })] });
    expect(ptsAt(later.spans[0], 8.5)).toBe(P0 + 45_000);
    expect(planClip(later, 8 + at(6), 8 + at(12)).copy).toEqual({ from: pts(6), to: pts(12) });
  });

  it.each<[string, Partial<ClipSource>, number, number, string]>([
    ['a cut inside one GOP', {}, at(1), at(5), 'the cut lies inside one GOP: there is no whole GOP to copy'],
    [
      'HEVC',
      { video: { codec: 'hevc', profile: 'Main', pixFmt: 'yuv420p' } },
      at(2),
      at(21),
      'the video is hevc, not H.264: re-encoded edges could not match it',
    ],
    ['4:2:2', { video: { codec: 'h264', profile: 'High 4:2:2', pixFmt: 'yuv422p' } }, at(2), at(21), "the video's pixel format yuv422p is not 8-bit 4:2:0"],
    ['High 10', { video: { codec: 'h264', profile: 'High 10', pixFmt: 'yuv420p' } }, at(2), at(21), 'the H.264 profile High 10 is not one libx264 matches'],
    ['interlacing', { video: { codec: 'h264', profile: 'Main', pixFmt: 'yuv420p', fieldOrder: 'tt' } }, at(2), at(21), 'the video is interlaced (tt)'],
    ['an old ffmpeg', { canSmartCut: false }, at(2), at(21), 'this ffmpeg predates 5.0 (no -fps_mode, -enc_time_base or setts filter)'],
  ])('encodes the whole cut for %s', (_name, fields, start, end, reason) => {
    expect(planClip(source(fields), start, end)).toMatchObject({ path: 'encode', reason, spans: [{ span: 0, range: { from: pts(Math.round(start * 30)) } }] });
  });

  it('encodes when a boundary GOP is open (a frame decoded after the key frame is shown before it)', () => {
    const video = closedGops(4);
    // frame 5 decoded right after key frame 6, as an open GOP's leading picture is
    const five = video.findIndex((p) => p.pts === pts(5));
    const [leading] = video.splice(five, 1);
    video.splice(video.findIndex((p) => p.pts === pts(6)) + 1, 0, leading);
    const plan = planClip(source({ spans: [span(video.map((p, i) => ({ ...p, dts: P0 + (i - 1) * F })))] }), at(2), at(21));
    expect(plan).toMatchObject({ path: 'encode', reason: `the GOP at ${pts(6)} is open (frames decoded after its key frame are shown before it)` });
  });

  it('encodes across a discontinuity, each span cut in its own timestamps', () => {
    const second = span(closedGops(2, 6, 12, 500_000), { segments: [2], startSeconds: 24 / 30, endSeconds: 36 / 30, anchorPts: 500_000 });
    const plan = planClip(source({ spans: [span(closedGops(4)), second] }), at(18), at(30));
    expect(plan).toEqual({
      path: 'encode',
      reason: 'the cut crosses a discontinuity (a live reconnect or slate): its timestamps do not run on',
      spans: [
        { span: 0, range: { from: pts(18), to: pts(24) } },
        { span: 1, range: { from: 500_000, to: 500_000 + 6 * F } },
      ],
      frames: 12,
    });
  });

  it('stream-copies audio-only media by time, and encodes it across a discontinuity', () => {
    const audio = { video: undefined, spans: [span([], { anchorPts: 1000, endSeconds: 4 })] };
    expect(planClip(source(audio), 1, 2.5)).toEqual({
      path: 'audio',
      reason: 'audio-only media: every AAC frame is a key frame, so it is stream-copied',
      spans: [{ span: 0, range: { from: 91_000, to: 226_000 } }],
      frames: 0,
    });
    const twoSpans = { video: undefined, spans: [span([], { anchorPts: 1000, endSeconds: 2 }), span([], { startSeconds: 2, endSeconds: 4, anchorPts: 7000 })] };
    expect(planClip(source(twoSpans), 1, 2.5)).toMatchObject({
      path: 'encode',
      spans: [
        { span: 0, range: { from: 91_000, to: 181_000 } },
        { span: 1, range: { from: 7000, to: 52_000 } },
      ],
    });
  });

  it('refuses a cut with no media in it', () => {
    expect(() => planClip(source(), 5, 6)).toThrow(ClipPlanError);
  });

  it('measures the usual frame interval, ignoring an odd gap', () => {
    const video = closedGops(2).sort((a, b) => a.pts - b.pts);
    expect(frameTicks(video)).toBe(F);
    expect(frameTicks([...video, { pts: pts(40), dts: 0, key: false, segment: 0 }])).toBe(F);
  });
});
