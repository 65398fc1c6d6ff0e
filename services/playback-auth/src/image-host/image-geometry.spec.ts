import { animatedGeometry, FrameGeometry, thumbnailGeometry, tileSize } from './image-geometry';
import { FitMode, Rotation, ThumbnailRequest } from './image-request';

const HD = { width: 1920, height: 1080 };
const request = (fields: Partial<ThumbnailRequest>): ThumbnailRequest => ({
  kind: 'thumbnail',
  format: 'jpg',
  fitMode: 'preserve',
  rotate: 0,
  flipV: false,
  flipH: false,
  latest: false,
  ...fields,
});
const fit = (fitMode: FitMode, width: number, height: number, rotate: Rotation = 0) => {
  const g = thumbnailGeometry(HD, request({ fitMode, width, height, rotate }));
  return { scaled: g.scaled, fit: g.fit, output: g.output };
};

describe('thumbnailGeometry', () => {
  it('keeps the video’s size without width and height, and takes the other side from the aspect ratio with one', () => {
    expect(thumbnailGeometry(HD, request({}))).toEqual<FrameGeometry>({ rotate: 0, scaled: HD, fit: 'none', output: HD, flipV: false, flipH: false });
    expect(thumbnailGeometry(HD, request({ width: 640 })).output).toEqual({ width: 640, height: 360 });
    expect(thumbnailGeometry(HD, request({ height: 100 })).output).toEqual({ width: 178, height: 100 });
    expect(thumbnailGeometry(HD, request({ width: 1 })).output).toEqual({ width: 1, height: 1 });
  });

  it('fits the box as each fit_mode says (Mux: 100x100 of 16:9 preserved is 100x56)', () => {
    expect(fit('preserve', 100, 100)).toEqual({ scaled: { width: 100, height: 56 }, fit: 'none', output: { width: 100, height: 56 } });
    expect(fit('stretch', 100, 100)).toEqual({ scaled: { width: 100, height: 100 }, fit: 'none', output: { width: 100, height: 100 } });
    expect(fit('crop', 100, 100)).toEqual({ scaled: { width: 178, height: 100 }, fit: 'crop', output: { width: 100, height: 100 } });
    expect(fit('smartcrop', 100, 100)).toEqual({ scaled: { width: 178, height: 100 }, fit: 'smartcrop', output: { width: 100, height: 100 } });
    expect(fit('pad', 100, 100)).toEqual({ scaled: { width: 100, height: 56 }, fit: 'pad', output: { width: 100, height: 100 } });
    // a box wider than the video: the height decides
    expect(fit('preserve', 1000, 100)).toEqual({ scaled: { width: 178, height: 100 }, fit: 'none', output: { width: 178, height: 100 } });
    expect(fit('crop', 1000, 100)).toEqual({ scaled: { width: 1000, height: 563 }, fit: 'crop', output: { width: 1000, height: 100 } });
  });

  it('rotates first, so width and height are those of the delivered image, and flips last', () => {
    expect(thumbnailGeometry(HD, request({ rotate: 90 })).output).toEqual({ width: 1080, height: 1920 });
    expect(thumbnailGeometry(HD, request({ rotate: 270, width: 540 })).output).toEqual({ width: 540, height: 960 });
    expect(thumbnailGeometry(HD, request({ rotate: 180, width: 640 })).output).toEqual({ width: 640, height: 360 });
    expect(fit('preserve', 100, 100, 90)).toEqual({ scaled: { width: 56, height: 100 }, fit: 'none', output: { width: 56, height: 100 } });
    expect(thumbnailGeometry(HD, request({ flipV: true, flipH: true }))).toMatchObject({ flipV: true, flipH: true });
  });
});

describe('animatedGeometry', () => {
  it('is 320 px wide by default, keeps the aspect ratio, and stays within 640x640', () => {
    expect(animatedGeometry(HD, {}).output).toEqual({ width: 320, height: 180 });
    expect(animatedGeometry(HD, { width: 640 }).output).toEqual({ width: 640, height: 360 });
    expect(animatedGeometry(HD, { height: 360 }).output).toEqual({ width: 640, height: 360 });
    expect(animatedGeometry(HD, { width: 640, height: 100 }).output).toEqual({ width: 178, height: 100 });
    // a tall video: its default width is lowered so its height stays at 640
    expect(animatedGeometry({ width: 1080, height: 1920 }, {}).output).toEqual({ width: 320, height: 569 });
    expect(animatedGeometry({ width: 1080, height: 1920 }, { width: 640 }).output).toEqual({ width: 360, height: 640 });
  });
});

describe('tileSize', () => {
  it('is 256 px wide with an even height from the aspect ratio (Mux’s 16:10 tiles are 256x160)', () => {
    expect(tileSize(HD)).toEqual({ width: 256, height: 144 });
    expect(tileSize({ width: 1280, height: 800 })).toEqual({ width: 256, height: 160 });
    expect(tileSize({ width: 640, height: 480 })).toEqual({ width: 256, height: 192 });
    expect(tileSize({ width: 1080, height: 1920 })).toEqual({ width: 256, height: 456 });
  });
});
