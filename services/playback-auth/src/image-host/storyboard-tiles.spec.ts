import { AccessUnit } from '@platform/media';
import { timedSegments } from './image-plan';
import { pickTiles, SegmentPictures } from './storyboard-tiles';

const FRAME = 3000;
const START = 126_000;

/** A segment of `frames` pictures at 30 fps from `first` (its place in the whole video), an IDR every `gop`. */
function pictures(first: number, frames: number, gop: number): AccessUnit[] {
  return Array.from({ length: frames }, (_, i) => ({
    pts: START + (first + i) * FRAME,
    dts: START + (first + i - 1) * FRAME,
    idr: (first + i) % gop === 0,
    reference: true,
    data: Buffer.alloc(0),
  }));
}

describe('pickTiles', () => {
  // two 4 s segments of 2 s GOPs
  const { segments } = timedSegments([
    { uri: 's0.ts', duration: 4, discontinuity: false },
    { uri: 's1.ts', duration: 4, discontinuity: false },
  ]);
  const loaded: SegmentPictures[] = [
    { segment: segments[0], units: pictures(0, 120, 60) },
    { segment: segments[1], units: pictures(120, 120, 60) },
  ];
  const at = (seconds: number) => loaded[seconds < 4 ? 0 : 1];

  it('sits a tile on a key frame within half an interval of its time', () => {
    const picks = pickTiles([0, 2.5, 5.5], at, 3);
    expect(picks.map((p) => p.seconds)).toEqual([0, 2, 6]);
    expect(picks.map((p) => p.source.segment.uri)).toEqual(['s0.ts', 's0.ts', 's1.ts']);
    expect(picks.map((p) => (p.pts - START) / FRAME)).toEqual([0, 60, 180]);
  });

  it('takes the picture shown at the time when no key frame is near', () => {
    const picks = pickTiles([0.5, 1.0, 1.5], at, 0.5);
    expect(picks.map((p) => Math.round(p.seconds * 30))).toEqual([15, 30, 45]);
  });

  it('keeps a picture two tiles share once', () => {
    // tiles every 10 ms are closer than a frame (33 ms) apart
    const picks = pickTiles([1, 1.01, 1.02, 1.04], at, 0.01);
    expect(picks.map((p) => Math.round(p.seconds * 30))).toEqual([30, 31]);
  });
});
