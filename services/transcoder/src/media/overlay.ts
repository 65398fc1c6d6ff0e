import { FfprobeOutput } from './probe.types';

/**
 * Watermark placement (spec 000 §2.2 `overlay_settings`, Mux's "Add watermarks to your videos"): where and
 * how large the image sits on a frame, as whole pixels of that frame. Pure, so every rule is unit-tested.
 */

/** The settings as the API takes them: alignments, and lengths such as `10%` or `40px`. */
export interface OverlaySettings {
  vertical_align?: string;
  vertical_margin?: string;
  horizontal_align?: string;
  horizontal_margin?: string;
  width?: string;
  height?: string;
  opacity?: string;
}

export interface Size {
  width: number;
  height: number;
}

/** The image scaled to `width`x`height`, its top-left corner at (`x`, `y`) of the frame (negative: off the left/top edge). */
export interface OverlayPlacement {
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0 (invisible) to 1 (as the image is). */
  opacity: number;
}

/**
 * Pixel lengths, and an image without `width`/`height`, are measured on the video as if it were scaled to
 * fit this frame (the SDK's words for a blank width and height), so a watermark looks the same on every
 * source size and in every rendition.
 */
export const REFERENCE_FRAME: Readonly<Size> = { width: 1920, height: 1080 };

type Length = { value: number; unit: '%' | 'px' };

/** `12.5%` or `-40px`; anything else (the assets service refuses it at create) counts as not given. */
export function parseLength(text: string | undefined): Length | undefined {
  const match = /^(-?\d+(?:\.\d+)?)(%|px)$/.exec(text?.trim() ?? '');
  if (!match) return undefined;
  return { value: Number(match[1]), unit: match[2] as Length['unit'] };
}

/**
 * Places the image on a frame of `frame` size:
 * - width/height: `%` of the frame's width/height, `px` on the reference frame; both blank → the image's
 *   own pixels on the reference frame; one blank → the other scaled to keep the image's aspect ratio;
 * - alignment `top`/`middle`/`bottom` (default `top`) and `left`/`center`/`right` (default `left`), with
 *   the margin from that edge to the image's nearest edge (`%` of the frame's height/width, `px` on the
 *   reference frame); negative margins move it off the frame; with `middle`/`center` the margin shifts the
 *   centred image, positive down/right, negative up/left;
 * - opacity `%`, default 100 %.
 */
export function overlayPlacement(settings: OverlaySettings, image: Size, frame: Size): OverlayPlacement {
  // Frame pixels per reference pixel: the video scaled to fit the reference frame, and back.
  const perReferencePixel = 1 / Math.min(REFERENCE_FRAME.width / frame.width, REFERENCE_FRAME.height / frame.height);
  const toPixels = (length: Length | undefined, along: number): number | undefined => {
    if (!length) return undefined;
    return length.unit === '%' ? (length.value / 100) * along : length.value * perReferencePixel;
  };
  const size = overlaySize(toPixels(parseLength(settings.width), frame.width), toPixels(parseLength(settings.height), frame.height), image, perReferencePixel);
  const horizontalMargin = toPixels(parseLength(settings.horizontal_margin), frame.width) ?? 0;
  const verticalMargin = toPixels(parseLength(settings.vertical_margin), frame.height) ?? 0;
  return {
    x: Math.round(alongAxis(settings.horizontal_align, { start: 'left', centre: 'center', end: 'right' }, frame.width, size.width, horizontalMargin)),
    y: Math.round(alongAxis(settings.vertical_align, { start: 'top', centre: 'middle', end: 'bottom' }, frame.height, size.height, verticalMargin)),
    ...size,
    opacity: opacityOf(settings.opacity),
  };
}

function overlaySize(width: number | undefined, height: number | undefined, image: Size, perReferencePixel: number): Size {
  const aspect = image.width / image.height;
  let w: number;
  let h: number;
  if (width === undefined && height === undefined) {
    w = image.width * perReferencePixel;
    h = image.height * perReferencePixel;
  } else if (height === undefined) {
    w = width!;
    h = width! / aspect;
  } else if (width === undefined) {
    w = height * aspect;
    h = height;
  } else {
    w = width;
    h = height;
  }
  // A scaled image has at least one pixel each way (ffmpeg's scale refuses 0).
  return { width: Math.max(1, Math.round(w)), height: Math.max(1, Math.round(h)) };
}

/** Offset of the image's near edge from the frame's start edge along one axis. */
function alongAxis(align: string | undefined, names: { start: string; centre: string; end: string }, frame: number, image: number, margin: number): number {
  if (align === names.end) return frame - image - margin;
  if (align === names.centre) return (frame - image) / 2 + margin;
  return margin;
}

function opacityOf(text: string | undefined): number {
  const length = parseLength(text);
  if (!length || length.unit !== '%') return 1;
  return Math.min(1, Math.max(0, length.value / 100));
}

/**
 * The filter chain turning the decoded image into the overlay input: scaled to its placement size, given
 * an alpha channel (JPEG has none), faded to its opacity.
 */
export function overlayImageChain(placement: OverlayPlacement): string {
  const chain = [`scale=${placement.width}:${placement.height}`, 'format=rgba'];
  if (placement.opacity < 1) chain.push(`colorchannelmixer=aa=${round3(placement.opacity)}`);
  return chain.join(',');
}

/** The overlay filter itself; the single image frame is repeated over the whole video (`eof_action=repeat`). */
export function overlayFilter(placement: OverlayPlacement): string {
  return `overlay=x=${placement.x}:y=${placement.y}:eof_action=repeat`;
}

function round3(n: number): string {
  return String(Math.round(n * 1000) / 1000);
}

/** Largest watermark image, each way (Mux's limit for overlay inputs). */
export const MAX_OVERLAY_DIMENSION = 4096;
/** ffprobe's reading of an image file without extension: demuxer → codec of each format accepted. */
const IMAGE_FORMATS: Record<string, { codec: string; name: string }> = {
  png_pipe: { codec: 'png', name: 'PNG' },
  jpeg_pipe: { codec: 'mjpeg', name: 'JPEG' },
  webp_pipe: { codec: 'webp', name: 'WebP' },
};
export const UNREADABLE_OVERLAY = 'The watermark image could not be read; it must be a PNG, JPEG or WebP image.';

/** The size of a watermark image ffprobe read, or the problem (`invalid_input` message) that rules it out. */
export function overlayImageSize(probe: FfprobeOutput): { size: Size } | { problem: string } {
  const stream = probe.streams?.find((s) => s.codec_type === 'video');
  const format = probe.format?.format_name ?? '';
  const accepted = IMAGE_FORMATS[format];
  if (!stream) return { problem: UNREADABLE_OVERLAY };
  if (!accepted || stream.codec_name !== accepted.codec) {
    return { problem: `The watermark image must be a PNG, JPEG or WebP image, not ${stream.codec_name ?? format}.` };
  }
  const { width, height } = stream;
  if (!width || !height) return { problem: UNREADABLE_OVERLAY };
  if (width > MAX_OVERLAY_DIMENSION || height > MAX_OVERLAY_DIMENSION) {
    return { problem: `The watermark image is ${width}x${height} pixels; the maximum is ${MAX_OVERLAY_DIMENSION}x${MAX_OVERLAY_DIMENSION}.` };
  }
  return { size: { width, height } };
}
