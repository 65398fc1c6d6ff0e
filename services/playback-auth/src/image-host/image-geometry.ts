import { AnimatedRequest, FitMode, MAX_ANIMATED_SIDE, DEFAULT_ANIMATED_WIDTH, Rotation, ThumbnailRequest } from './image-request';

export interface Size {
  width: number;
  height: number;
}

/**
 * How a decoded frame becomes the delivered picture, in this order: rotate (clockwise), scale to `scaled`,
 * then crop (`crop`: a window of `output`'s size, centred unless `smart`) or pad (black bars around it,
 * centred) to `output`, then flip. `scaled` is also the frame size the source rendition must reach (the
 * smallest rendition at least that large is decoded).
 */
export interface FrameGeometry {
  rotate: Rotation;
  scaled: Size;
  fit: 'none' | 'crop' | 'smartcrop' | 'pad';
  output: Size;
  flipV: boolean;
  flipH: boolean;
}

/**
 * Mux's thumbnail sizing (`fit_mode`): no width or height, the video's own size; one of them, the other
 * from the aspect ratio; both: `preserve` fits inside the box (100x100 of 16:9 is 100x56), `stretch` fills
 * it exactly, `crop` fills it and cuts the overflow around the centre (`smartcrop` around the busiest
 * part), `pad` fits inside and fills the rest with black. Sizes are whole pixels, at least 1.
 */
export function thumbnailGeometry(video: Size, request: ThumbnailRequest): FrameGeometry {
  const frame = rotated(video, request.rotate);
  const { width, height } = request;
  const base = { rotate: request.rotate, flipV: request.flipV, flipH: request.flipH };
  if (width === undefined && height === undefined) return { ...base, scaled: frame, fit: 'none', output: frame };
  if (width === undefined || height === undefined) {
    const size =
      width !== undefined
        ? { width, height: side((width * frame.height) / frame.width) }
        : { width: side((height! * frame.width) / frame.height), height: height! };
    return { ...base, scaled: size, fit: 'none', output: size };
  }
  const box = { width, height };
  return { ...base, ...fitInto(frame, box, request.fitMode) };
}

function fitInto(frame: Size, box: Size, mode: FitMode): Pick<FrameGeometry, 'scaled' | 'fit' | 'output'> {
  switch (mode) {
    case 'stretch':
      return { scaled: box, fit: 'none', output: box };
    case 'preserve': {
      const scaled = contain(frame, box);
      return { scaled, fit: 'none', output: scaled };
    }
    case 'pad':
      return { scaled: contain(frame, box), fit: 'pad', output: box };
    case 'crop':
    case 'smartcrop':
      return { scaled: cover(frame, box), fit: mode, output: box };
  }
}

/**
 * Animated images: 320 px wide by default; one side given, the other from the aspect ratio; both, fitted
 * inside that box. Never beyond Mux's 640x640 (a tall video's default width is lowered to keep its height
 * there).
 */
export function animatedGeometry(video: Size, request: Pick<AnimatedRequest, 'width' | 'height'>): FrameGeometry {
  const box = {
    width: request.width ?? (request.height !== undefined ? MAX_ANIMATED_SIDE : DEFAULT_ANIMATED_WIDTH),
    height: request.height ?? MAX_ANIMATED_SIDE,
  };
  const scaled = contain(video, box);
  return { rotate: 0, scaled, fit: 'none', output: scaled, flipV: false, flipH: false };
}

/** A storyboard tile: 256 px wide (as Mux's), the height from the aspect ratio, even. */
export function tileSize(video: Size): Size {
  const width = 256;
  return { width, height: Math.max(2, 2 * Math.round((width * video.height) / video.width / 2)) };
}

export function rotated(size: Size, rotate: Rotation): Size {
  return rotate === 90 || rotate === 270 ? { width: size.height, height: size.width } : size;
}

/** The largest size of the frame's aspect ratio inside the box. */
export function contain(frame: Size, box: Size): Size {
  const scale = Math.min(box.width / frame.width, box.height / frame.height);
  return { width: Math.min(box.width, side(frame.width * scale)), height: Math.min(box.height, side(frame.height * scale)) };
}

/** The smallest size of the frame's aspect ratio covering the box. */
export function cover(frame: Size, box: Size): Size {
  const scale = Math.max(box.width / frame.width, box.height / frame.height);
  return { width: Math.max(box.width, side(frame.width * scale)), height: Math.max(box.height, side(frame.height * scale)) };
}

function side(value: number): number {
  return Math.max(1, Math.round(value));
}
