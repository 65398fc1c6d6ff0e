import { overlayFilter, overlayImageChain, overlayImageSize, overlayPlacement, OverlaySettings, parseLength, UNREADABLE_OVERLAY } from './overlay';
import { FfprobeOutput } from './probe.types';

const HD = { width: 1920, height: 1080 };
const IMAGE = { width: 200, height: 100 };
const place = (settings: OverlaySettings, frame = HD, image = IMAGE) => overlayPlacement(settings, image, frame);
const box = (settings: OverlaySettings, frame = HD, image = IMAGE) => {
  const { x, y, width, height } = place(settings, frame, image);
  return [x, y, width, height];
};

describe('parseLength', () => {
  it('reads percentages and pixels, signed and fractional', () => {
    expect(parseLength('10%')).toEqual({ value: 10, unit: '%' });
    expect(parseLength('-12.5%')).toEqual({ value: -12.5, unit: '%' });
    expect(parseLength('40px')).toEqual({ value: 40, unit: 'px' });
    expect(parseLength('-40px')).toEqual({ value: -40, unit: 'px' });
  });

  it('counts anything else as not given', () => {
    for (const text of [undefined, '', '10', 'px', '10 %', '10em', '1e3px', '--1px']) expect(parseLength(text)).toBeUndefined();
  });
});

describe('overlayPlacement on a 1920x1080 frame (reference pixels are frame pixels)', () => {
  it('defaults: top left, no margin, the image its own size, fully opaque', () => {
    expect(place({})).toEqual({ x: 0, y: 0, width: 200, height: 100, opacity: 1 });
  });

  it('top/left: margins from the top and left edges, % of height and width', () => {
    expect(box({ vertical_align: 'top', vertical_margin: '5%', horizontal_align: 'left', horizontal_margin: '10%' })).toEqual([192, 54, 200, 100]);
    expect(box({ vertical_align: 'top', vertical_margin: '30px', horizontal_align: 'left', horizontal_margin: '40px' })).toEqual([40, 30, 200, 100]);
  });

  it('bottom/right: margins from the bottom and right edges to the image nearest edge', () => {
    expect(box({ vertical_align: 'bottom', vertical_margin: '5%', horizontal_align: 'right', horizontal_margin: '5%' })).toEqual([1624, 926, 200, 100]);
    expect(box({ vertical_align: 'bottom', horizontal_align: 'right' })).toEqual([1720, 980, 200, 100]);
    expect(box({ horizontal_align: 'right', horizontal_margin: '40px' })).toEqual([1680, 0, 200, 100]);
  });

  it('middle/center: centred, the margin shifts it (positive down/right, negative up/left)', () => {
    expect(box({ vertical_align: 'middle', horizontal_align: 'center' })).toEqual([860, 490, 200, 100]);
    expect(box({ vertical_align: 'middle', vertical_margin: '10%', horizontal_align: 'center', horizontal_margin: '40px' })).toEqual([900, 598, 200, 100]);
    expect(box({ vertical_align: 'middle', vertical_margin: '-10%', horizontal_align: 'center', horizontal_margin: '-10%' })).toEqual([668, 382, 200, 100]);
  });

  it('negative margins move it off the frame, from whichever edge it is aligned to', () => {
    expect(box({ horizontal_margin: '-50px', vertical_margin: '-20px' })).toEqual([-50, -20, 200, 100]);
    expect(box({ vertical_align: 'bottom', vertical_margin: '-20%', horizontal_align: 'right', horizontal_margin: '-150px' })).toEqual([1870, 1196, 200, 100]);
    expect(box({ horizontal_margin: '-100%' })).toEqual([-1920, 0, 200, 100]);
  });

  it('one of width/height given: the other keeps the image aspect ratio', () => {
    expect(box({ width: '25%' })).toEqual([0, 0, 480, 240]);
    expect(box({ height: '10%' })).toEqual([0, 0, 216, 108]);
    expect(box({ width: '300px' })).toEqual([0, 0, 300, 150]);
    expect(box({ height: '50px' }, HD, { width: 120, height: 90 })).toEqual([0, 0, 67, 50]);
  });

  it('both given: that size exactly, the image stretched', () => {
    expect(box({ width: '300px', height: '50px' })).toEqual([0, 0, 300, 50]);
    expect(box({ width: '50%', height: '10%' })).toEqual([0, 0, 960, 108]);
  });

  it('places with its own size: a right/bottom alignment uses the scaled width and height', () => {
    expect(box({ width: '20%', horizontal_align: 'right', horizontal_margin: '5%', vertical_align: 'bottom', vertical_margin: '5%' })).toEqual([
      1440, 834, 384, 192,
    ]);
  });

  it('opacity is a percentage, default 100 %, clamped to 0–100 %', () => {
    expect(place({ opacity: '50%' }).opacity).toBe(0.5);
    expect(place({ opacity: '0%' }).opacity).toBe(0);
    expect(place({ opacity: '100%' }).opacity).toBe(1);
    expect(place({ opacity: '12.5%' }).opacity).toBe(0.125);
    expect(place({ opacity: '150%' }).opacity).toBe(1);
    expect(place({ opacity: '50px' }).opacity).toBe(1);
  });

  it('never scales the image to zero pixels', () => {
    expect(box({ width: '0%' })).toEqual([0, 0, 1, 1]);
    expect(box({ width: '1px', height: '0px' })).toEqual([0, 0, 1, 1]);
  });

  it('treats an alignment it does not know as the default edge', () => {
    expect(box({ vertical_align: 'centre', horizontal_align: 'middle', vertical_margin: '10px', horizontal_margin: '10px' })).toEqual([10, 10, 200, 100]);
  });
});

describe('overlayPlacement on other frame sizes (px on the video as if scaled to fit 1920x1080)', () => {
  const small = { width: 640, height: 360 };

  it('a 640x360 frame: an image without size and px lengths shrink by 3, % lengths are of this frame', () => {
    expect(box({}, small)).toEqual([0, 0, 67, 33]);
    expect(box({ horizontal_align: 'right', horizontal_margin: '40px', vertical_align: 'bottom', vertical_margin: '30px' }, small)).toEqual([560, 317, 67, 33]);
    expect(box({ width: '30px' }, small)).toEqual([0, 0, 10, 5]);
    expect(box({ width: '20%', horizontal_margin: '5%', vertical_margin: '5%' }, small)).toEqual([32, 18, 128, 64]);
  });

  it('a 3840x2160 frame: px lengths and the image grow by 2', () => {
    expect(box({ horizontal_margin: '10px', vertical_margin: '10px' }, { width: 3840, height: 2160 })).toEqual([20, 20, 400, 200]);
  });

  it('a portrait 1080x1920 frame fits the reference by its height (scale 0.5625)', () => {
    expect(box({}, { width: 1080, height: 1920 })).toEqual([0, 0, 356, 178]);
    expect(box({ vertical_align: 'middle', horizontal_align: 'center' }, { width: 1080, height: 1920 })).toEqual([362, 871, 356, 178]);
  });

  it('a 4:3 1440x1080 frame fits by its height: reference pixels are frame pixels', () => {
    expect(box({ horizontal_margin: '40px' }, { width: 1440, height: 1080 })).toEqual([40, 0, 200, 100]);
  });

  it('the same % settings give the same fractions of every rendition size', () => {
    const settings = { width: '20%', horizontal_align: 'right', horizontal_margin: '5%', vertical_align: 'bottom', vertical_margin: '5%' };
    for (const frame of [HD, { width: 1280, height: 720 }, small, { width: 480, height: 270 }]) {
      const p = place(settings, frame);
      expect(p.width / frame.width).toBeCloseTo(0.2, 2);
      expect((p.x + p.width) / frame.width).toBeCloseTo(0.95, 2);
      expect((p.y + p.height) / frame.height).toBeCloseTo(0.95, 2);
    }
  });
});

describe('overlay filters', () => {
  it('scales the image, gives it alpha, and fades it only when not fully opaque', () => {
    expect(overlayImageChain({ x: 0, y: 0, width: 67, height: 33, opacity: 1 })).toBe('scale=67:33,format=rgba');
    expect(overlayImageChain({ x: 0, y: 0, width: 67, height: 33, opacity: 0.5 })).toBe('scale=67:33,format=rgba,colorchannelmixer=aa=0.5');
    expect(overlayImageChain({ x: 0, y: 0, width: 8, height: 8, opacity: 1 / 3 })).toBe('scale=8:8,format=rgba,colorchannelmixer=aa=0.333');
  });

  it('overlays at the placement, repeating the single image frame', () => {
    expect(overlayFilter({ x: -5, y: 926, width: 200, height: 100, opacity: 1 })).toBe('overlay=x=-5:y=926:eof_action=repeat');
  });
});

describe('overlayImageSize', () => {
  const image = (format: string, codec: string, width?: number, height?: number): FfprobeOutput => ({
    format: { format_name: format },
    streams: [{ index: 0, codec_type: 'video', codec_name: codec, width, height }],
  });

  it('accepts PNG, JPEG and WebP up to 4096x4096', () => {
    expect(overlayImageSize(image('png_pipe', 'png', 200, 100))).toEqual({ size: { width: 200, height: 100 } });
    expect(overlayImageSize(image('jpeg_pipe', 'mjpeg', 4096, 4096))).toEqual({ size: { width: 4096, height: 4096 } });
    expect(overlayImageSize(image('webp_pipe', 'webp', 1, 1))).toEqual({ size: { width: 1, height: 1 } });
  });

  it('refuses a larger image, naming its size', () => {
    expect(overlayImageSize(image('png_pipe', 'png', 4097, 10))).toEqual({
      problem: 'The watermark image is 4097x10 pixels; the maximum is 4096x4096.',
    });
    expect(overlayImageSize(image('webp_pipe', 'webp', 300, 5000))).toEqual({
      problem: 'The watermark image is 300x5000 pixels; the maximum is 4096x4096.',
    });
  });

  it('refuses other formats, naming what the file is', () => {
    expect(overlayImageSize(image('gif', 'gif', 200, 100))).toEqual({ problem: 'The watermark image must be a PNG, JPEG or WebP image, not gif.' });
    expect(overlayImageSize(image('mov,mp4,m4a,3gp,3g2,mj2', 'h264', 640, 360))).toEqual({
      problem: 'The watermark image must be a PNG, JPEG or WebP image, not h264.',
    });
    // a PNG demuxer with another codec inside is not a PNG
    expect(overlayImageSize(image('png_pipe', 'apng', 10, 10))).toEqual({ problem: 'The watermark image must be a PNG, JPEG or WebP image, not apng.' });
  });

  it('refuses a file without a picture or without a size', () => {
    expect(overlayImageSize({ format: { format_name: 'mp3' }, streams: [{ index: 0, codec_type: 'audio', codec_name: 'mp3' }] })).toEqual({
      problem: UNREADABLE_OVERLAY,
    });
    expect(overlayImageSize({})).toEqual({ problem: UNREADABLE_OVERLAY });
    expect(overlayImageSize(image('png_pipe', 'png'))).toEqual({ problem: UNREADABLE_OVERLAY });
  });
});
