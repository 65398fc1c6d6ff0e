import { animatedSpan, chooseVariant, imageCacheKey, segmentAt, storyboardSpan, thumbnailTime, timedSegments, VideoVariant } from './image-plan';

const LADDER: VideoVariant[] = [
  { name: '1080p', width: 1920, height: 1080, bandwidth: 5_500_000 },
  { name: '720p', width: 1280, height: 720, bandwidth: 3_300_000 },
  { name: '360p', width: 640, height: 360, bandwidth: 900_000 },
  { name: '270p', width: 480, height: 270, bandwidth: 450_000 },
];

describe('chooseVariant', () => {
  it('decodes the smallest rendition at least as large as the frame needed (a pixel of rounding allowed), else the largest', () => {
    const choose = (width: number, height: number, rotate: 0 | 90 = 0) => chooseVariant(LADDER, { scaled: { width, height }, rotate }).name;
    expect(choose(1920, 1080)).toBe('1080p');
    expect(choose(640, 360)).toBe('360p');
    expect(choose(641, 361)).toBe('360p');
    expect(choose(642, 362)).toBe('720p');
    expect(choose(256, 144)).toBe('270p');
    expect(choose(3840, 2160)).toBe('1080p');
    // rotated: a 360x640 frame is a 640x360 rendition turned
    expect(choose(360, 640, 90)).toBe('360p');
  });
});

describe('timelines', () => {
  const { segments, duration } = timedSegments([
    { uri: 'segment_000.ts', duration: 4, discontinuity: false },
    { uri: 'segment_001.ts', duration: 4, discontinuity: false },
    { uri: 'segment_002.ts', duration: 2.5, discontinuity: false },
  ]);

  it('places each segment on the asset’s timeline and finds the one holding a time', () => {
    expect(segments.map((s) => s.start)).toEqual([0, 4, 8]);
    expect(duration).toBe(10.5);
    expect(segmentAt(segments, 0)?.uri).toBe('segment_000.ts');
    expect(segmentAt(segments, 3.999)?.uri).toBe('segment_000.ts');
    expect(segmentAt(segments, 4)?.uri).toBe('segment_001.ts');
    expect(segmentAt(segments, 10.5)?.uri).toBe('segment_002.ts');
    expect(segmentAt(segments, -1)?.uri).toBe('segment_000.ts');
  });
});

describe('thumbnailTime', () => {
  const vod = { duration: 60, live: false };

  it('takes time when given, clamped into the asset; else thumbnail_time (clamped); else the middle', () => {
    expect(thumbnailTime({ time: 12.5, latest: false }, vod)).toEqual({ at: 12.5 });
    expect(thumbnailTime({ time: 600, latest: false }, vod)).toEqual({ at: 60 });
    expect(thumbnailTime({ time: -2, latest: false }, vod)).toEqual({ at: 0 });
    expect(thumbnailTime({ latest: false }, { ...vod, thumbnailTime: 7 })).toEqual({ at: 7 });
    expect(thumbnailTime({ latest: false }, { ...vod, thumbnailTime: 90 })).toEqual({ at: 60 });
    expect(thumbnailTime({ latest: false }, vod)).toEqual({ at: 30 });
  });

  it('takes the live edge for latest, and for a live stream asked without a time', () => {
    expect(thumbnailTime({ latest: true }, { duration: 30, live: true })).toEqual({ edge: true });
    expect(thumbnailTime({ latest: false }, { duration: 30, live: true })).toEqual({ edge: true });
    expect(thumbnailTime({ time: 3, latest: false }, { duration: 30, live: true })).toEqual({ at: 3 });
  });
});

describe('spans', () => {
  it('clamps an animated image into the asset, keeping 250 ms where the asset has them', () => {
    expect(animatedSpan({ start: 2, end: 7 }, 60)).toEqual({ start: 2, end: 7 });
    expect(animatedSpan({ start: 58, end: 63 }, 60)).toEqual({ start: 58, end: 60 });
    expect(animatedSpan({ start: 70, end: 75 }, 60)).toEqual({ start: 59.75, end: 60 });
    expect(animatedSpan({ start: 0, end: 5 }, 0.1)).toEqual({ start: 0, end: 0.1 });
  });

  it('gives a storyboard the whole asset or the asked part of it', () => {
    expect(storyboardSpan({}, 60)).toEqual({ start: 0, end: 60 });
    expect(storyboardSpan({ assetStartTime: 10, assetEndTime: 20 }, 60)).toEqual({ start: 10, end: 20 });
    expect(storyboardSpan({ assetStartTime: 50, assetEndTime: 90 }, 60)).toEqual({ start: 50, end: 60 });
  });
});

describe('imageCacheKey', () => {
  it('keeps images under their asset, named by everything that decides them', () => {
    const key = imageCacheKey('asset1', ['thumbnail', '720p', 2000, '{}'], 'jpg');
    expect(key).toMatch(/^assets\/asset1\/images\/[0-9a-f]{40}\.jpg$/);
    expect(imageCacheKey('asset1', ['thumbnail', '720p', 2000, '{}'], 'jpg')).toBe(key);
    expect(imageCacheKey('asset1', ['thumbnail', '720p', 2001, '{}'], 'jpg')).not.toBe(key);
    expect(imageCacheKey('asset2', ['thumbnail', '720p', 2000, '{}'], 'jpg')).toMatch(/^assets\/asset2\/images\//);
    expect(imageCacheKey('asset1', ['thumbnail', '720p', 2000, '{}'], 'png')).toBe(key.replace(/jpg$/, 'png'));
  });
});
