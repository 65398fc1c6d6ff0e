import { FrameGeometry, Size } from '../image-geometry';
import { AnimatedFormat, ThumbnailFormat } from '../image-request';

/**
 * Pure ffmpeg argument builders of the image host (CONVENTIONS item 7): each takes what to make and
 * returns the exact argv; the unit tests assert them whole. Pictures are decoded from what is on stdin
 * (`PictureSource`), animated images from MPEG-TS segments on stdin; every image is written to stdout.
 */

const HEAD = ['-hide_banner', '-nostats', '-v', 'error'];
const VIDEO_ONLY = ['-an', '-sn', '-dn'];

/** JPEG quality (mjpeg's qscale, 2 best … 31), WebP quality (0 … 100). */
const JPEG_QUALITY = '3';
const WEBP_QUALITY = '80';
/**
 * libwebp's method (0 fastest … 6): 2 encodes a 1080p frame in about 60 % of the default 4's time for a file
 * about 5 % larger, which suits images made while a player waits.
 */
const WEBP_METHOD = '2';
const ANIMATED_WEBP_QUALITY = '70';

/**
 * Where pictures come from: decoder outputs `indexes` of an H.264 Annex B stream on stdin (the access units
 * `cutPictures` chose), or, for video it cannot cut, the frames first presented at or after each of `times`
 * (the pictures' own PTS in seconds, original timestamps kept) of MPEG-TS segments on stdin, decoded whole.
 */
export type PictureSource = { h264: readonly number[] } | { ts: readonly number[] };

function sourceArgs(source: PictureSource): { input: string[]; select: string } {
  if ('h264' in source) return { input: ['-f', 'h264', '-i', 'pipe:0'], select: selectFrames(source.h264) };
  const firstAtOrAfter = source.ts.map((t) => `gte(t\\,${(t - 0.0001).toFixed(6)})*not(gte(prev_t\\,${(t - 0.0001).toFixed(6)}))`);
  return { input: ['-copyts', '-f', 'mpegts', '-i', 'pipe:0'], select: `select=${firstAtOrAfter.join('+')}` };
}

/** One picture, shaped by `geometry`, as a JPEG, PNG or WebP. */
export function buildPictureArgs(source: PictureSource, geometry: FrameGeometry, format: ThumbnailFormat): string[] {
  const { input, select } = sourceArgs(source);
  const filters = [select, ...shapeFilters(geometry), ...flipFilters(geometry), pixelFormat(format)];
  return [...HEAD, ...input, ...VIDEO_ONLY, '-vf', filters.join(','), '-frames:v', '1', ...stillOutput(format)];
}

/** smartcrop, first half: the picture rotated and scaled to cover the box, as raw RGB24 (the window is chosen from it). */
export function buildCoverFrameArgs(source: PictureSource, geometry: FrameGeometry): string[] {
  const { input, select } = sourceArgs(source);
  const filters = [select, ...rotateFilters(geometry), scaleFilter(geometry.scaled), 'format=rgb24'];
  return [...HEAD, ...input, ...VIDEO_ONLY, '-vf', filters.join(','), '-frames:v', '1', '-f', 'rawvideo', 'pipe:1'];
}

/** smartcrop, second half: the chosen window (raw RGB24 of `size` on stdin), flipped, encoded. */
export function buildRawPictureArgs(size: Size, geometry: Pick<FrameGeometry, 'flipV' | 'flipH'>, format: ThumbnailFormat): string[] {
  const filters = [...flipFilters(geometry), pixelFormat(format)];
  return [
    ...HEAD,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-s',
    `${size.width}x${size.height}`,
    '-i',
    'pipe:0',
    '-vf',
    filters.join(','),
    '-frames:v',
    '1',
    ...stillOutput(format),
  ];
}

/** A storyboard: the pictures, each scaled to `tile`, laid `columns` to a row into one sheet. */
export function buildStoryboardArgs(source: PictureSource, tile: Size, grid: { columns: number; rows: number }, format: ThumbnailFormat): string[] {
  const { input, select } = sourceArgs(source);
  const filters = [select, scaleFilter(tile), `tile=${grid.columns}x${grid.rows}`, pixelFormat(format)];
  return [...HEAD, ...input, ...VIDEO_ONLY, '-vf', filters.join(','), '-frames:v', '1', ...stillOutput(format)];
}

/**
 * An animated GIF or WebP of MPEG-TS on stdin (the segments covering the span, original timestamps kept):
 * the frames presented from `from` (included) to `to` (excluded), seconds on the segments' clock, resampled to `fps`, scaled.
 * GIF: one palette made for the clip (stats of what changes between frames) and applied with ordered
 * dithering, which keeps frame-to-frame noise (and the file) small; both loop forever.
 */
export function buildAnimatedArgs(span: { from: number; to: number }, geometry: FrameGeometry, fps: number, format: AnimatedFormat): string[] {
  // a tenth of a millisecond early, so a frame exactly at either end is not lost to rounding (its PTS is in 90 kHz ticks)
  const trim = `trim=start=${(span.from - 0.0001).toFixed(6)}:end=${(span.to - 0.0001).toFixed(6)},setpts=PTS-STARTPTS,fps=${fps}:round=up`;
  const scale = scaleFilter(geometry.output, 'lanczos');
  const input = [...HEAD, '-copyts', '-f', 'mpegts', '-i', 'pipe:0', ...VIDEO_ONLY];
  if (format === 'gif') {
    const graph = `[0:v:0]${trim},${scale},split[frames][stats];[stats]palettegen=stats_mode=diff[palette];[frames][palette]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle`;
    return [...input, '-filter_complex', graph, '-loop', '0', '-f', 'gif', 'pipe:1'];
  }
  return [...input, '-vf', `${trim},${scale},format=yuv420p`, '-c:v', 'libwebp_anim', '-quality', ANIMATED_WEBP_QUALITY, '-loop', '0', '-f', 'webp', 'pipe:1'];
}

/** A `select` keeping the decoder's outputs at these indexes (presentation order). */
export function selectFrames(indexes: readonly number[]): string {
  return `select=${indexes.map((i) => `eq(n\\,${i})`).join('+')}`;
}

function shapeFilters(geometry: FrameGeometry): string[] {
  const { scaled, output, fit } = geometry;
  const filters = [...rotateFilters(geometry), scaleFilter(scaled)];
  if (fit === 'crop' || fit === 'smartcrop') filters.push(`crop=${output.width}:${output.height}`);
  if (fit === 'pad') filters.push(`pad=${output.width}:${output.height}:(ow-iw)/2:(oh-ih)/2:black`);
  return filters;
}

function rotateFilters({ rotate }: Pick<FrameGeometry, 'rotate'>): string[] {
  if (rotate === 90) return ['transpose=clock'];
  if (rotate === 270) return ['transpose=cclock'];
  if (rotate === 180) return ['hflip', 'vflip'];
  return [];
}

function flipFilters({ flipV, flipH }: Pick<FrameGeometry, 'flipV' | 'flipH'>): string[] {
  return [...(flipH ? ['hflip'] : []), ...(flipV ? ['vflip'] : [])];
}

function scaleFilter(size: Size, flags = 'bicubic'): string {
  return `scale=${size.width}:${size.height}:flags=${flags}`;
}

/** JPEG is full-range 4:2:0, PNG RGB, WebP 4:2:0. */
function pixelFormat(format: ThumbnailFormat): string {
  return format === 'jpg' ? 'format=yuvj420p' : format === 'png' ? 'format=rgb24' : 'format=yuv420p';
}

function stillOutput(format: ThumbnailFormat): string[] {
  if (format === 'jpg') return ['-c:v', 'mjpeg', '-q:v', JPEG_QUALITY, '-f', 'image2pipe', 'pipe:1'];
  if (format === 'png') return ['-c:v', 'png', '-f', 'image2pipe', 'pipe:1'];
  // image2pipe: libwebp's packet is the whole RIFF file; the webp muxer, unable to seek back on a pipe, would
  // leave its RIFF size 0, which browsers refuse to decode
  return ['-c:v', 'libwebp', '-quality', WEBP_QUALITY, '-compression_level', WEBP_METHOD, '-f', 'image2pipe', 'pipe:1'];
}
