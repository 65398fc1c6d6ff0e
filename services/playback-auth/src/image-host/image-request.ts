/**
 * The image host's URLs, as Mux's image.mux.com has them: `{playback_id}/thumbnail.{jpg,png,webp}`,
 * `animated.{gif,webp}`, `storyboard.{jpg,png,webp,vtt,json}`, each with its query parameters. A
 * parameter may also ride in a signed playback id's token as a claim, and then wins over the query.
 * Parsing only checks each value on its own; what depends on the asset (its duration, its size) is the
 * planner's.
 */

export type ThumbnailFormat = 'jpg' | 'png' | 'webp';
export type AnimatedFormat = 'gif' | 'webp';
export type StoryboardFormat = ThumbnailFormat | 'vtt' | 'json';
export type FitMode = 'preserve' | 'stretch' | 'crop' | 'smartcrop' | 'pad';
export type Rotation = 0 | 90 | 180 | 270;

export interface ThumbnailRequest {
  kind: 'thumbnail';
  format: ThumbnailFormat;
  /** Seconds into the asset; undefined: the asset's thumbnail_time, else its middle (a live stream: its live edge). */
  time?: number;
  width?: number;
  height?: number;
  fitMode: FitMode;
  /** Clockwise, applied before the size: width and height are the delivered image's. */
  rotate: Rotation;
  flipV: boolean;
  flipH: boolean;
  /** The live edge of an active live stream. */
  latest: boolean;
}

export interface AnimatedRequest {
  kind: 'animated';
  format: AnimatedFormat;
  start: number;
  end: number;
  width?: number;
  height?: number;
  fps: number;
}

export interface StoryboardRequest {
  kind: 'storyboard';
  format: StoryboardFormat;
  /** The sprite sheet's format: the extension, or for VTT/JSON the `format` parameter (default jpg). */
  imageFormat: ThumbnailFormat;
  /** A part of the asset only (Mux's instant clipping parameters), seconds. */
  assetStartTime?: number;
  assetEndTime?: number;
}

export type ImageRequest = ThumbnailRequest | AnimatedRequest | StoryboardRequest;
export type ImageKind = ImageRequest['kind'];

/** The largest thumbnail side: the 2160p tier's long side. */
export const MAX_THUMBNAIL_SIDE = 3840;
/** Mux's limits for animated images. */
export const MAX_ANIMATED_SIDE = 640;
export const MAX_ANIMATED_SECONDS = 10;
export const MIN_ANIMATED_SECONDS = 0.25;
export const DEFAULT_ANIMATED_SECONDS = 5;
export const DEFAULT_ANIMATED_WIDTH = 320;
export const DEFAULT_ANIMATED_FPS = 15;
export const MAX_ANIMATED_FPS = 30;

/** A request's parameters that cannot make an image: 400 with one message per parameter. */
export class ImageRequestError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join('; '));
    this.name = 'ImageRequestError';
  }
}

/** Each kind's file names and the audience (`aud`) its signed tokens must have. */
export const IMAGE_FILES: Record<ImageKind, { pattern: RegExp; audience: string }> = {
  thumbnail: { pattern: /^thumbnail\.(jpg|png|webp)$/, audience: 't' },
  animated: { pattern: /^animated\.(gif|webp)$/, audience: 'g' },
  storyboard: { pattern: /^storyboard\.(jpg|png|webp|vtt|json)$/, audience: 's' },
};

/** The kind and extension of an image file name; undefined for any other name. */
export function imageFile(name: string): { kind: ImageKind; extension: string } | undefined {
  for (const [kind, { pattern }] of Object.entries(IMAGE_FILES) as Array<[ImageKind, { pattern: RegExp }]>) {
    const match = pattern.exec(name);
    if (match) return { kind, extension: match[1] };
  }
  return undefined;
}

/** Registered JWT claims and Mux's own, which are never image parameters. */
const NOT_PARAMETERS = new Set(['sub', 'aud', 'exp', 'nbf', 'iat', 'iss', 'jti', 'kid', 'playback_restriction_id']);

/** The query with the token's claims laid over it (a claim wins); claim values become their text. */
export function mergeClaims(query: Readonly<Record<string, string | undefined>>, claims: Readonly<Record<string, unknown>> = {}): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (value !== undefined && name !== 'token') merged[name] = value;
  for (const [name, value] of Object.entries(claims)) {
    if (NOT_PARAMETERS.has(name)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') merged[name] = String(value);
  }
  return merged;
}

/** Parses the parameters of one image file; throws ImageRequestError naming every bad one. */
export function parseImageRequest(file: { kind: ImageKind; extension: string }, params: Readonly<Record<string, string>>): ImageRequest {
  const p = new Params(params);
  const request = PARSERS[file.kind](file.extension, p);
  if (p.problems.length > 0) throw new ImageRequestError(p.problems);
  return request;
}

const PARSERS: Record<ImageKind, (extension: string, p: Params) => ImageRequest> = {
  thumbnail: (extension, p) => ({
    kind: 'thumbnail',
    format: extension as ThumbnailFormat,
    time: p.number('time'),
    width: p.size('width', MAX_THUMBNAIL_SIDE),
    height: p.size('height', MAX_THUMBNAIL_SIDE),
    fitMode: p.oneOf('fit_mode', ['preserve', 'stretch', 'crop', 'smartcrop', 'pad'] as const, 'preserve'),
    rotate: Number(p.oneOf('rotate', ['0', '90', '180', '270'] as const, '0')) as Rotation,
    flipV: p.flag('flip_v'),
    flipH: p.flag('flip_h'),
    latest: p.flag('latest'),
    ...p.unsupported(['program_time']),
  }),
  animated: (extension, p) => {
    const start = p.number('start', 0) ?? 0;
    const end = p.number('end', 0) ?? start + DEFAULT_ANIMATED_SECONDS;
    if (p.ok('start') && p.ok('end')) {
      if (end - start > MAX_ANIMATED_SECONDS) p.problem(`end: must be at most ${MAX_ANIMATED_SECONDS} seconds after start (${end - start} s asked)`);
      else if (end - start < MIN_ANIMATED_SECONDS) p.problem(`end: must be at least ${MIN_ANIMATED_SECONDS} seconds after start`);
    }
    return {
      kind: 'animated',
      format: extension as AnimatedFormat,
      start,
      end,
      width: p.size('width', MAX_ANIMATED_SIDE),
      height: p.size('height', MAX_ANIMATED_SIDE),
      fps: p.integer('fps', 1, MAX_ANIMATED_FPS) ?? DEFAULT_ANIMATED_FPS,
    };
  },
  storyboard: (extension, p) => {
    const assetStartTime = p.number('asset_start_time', 0);
    const assetEndTime = p.number('asset_end_time', 0);
    if (assetStartTime !== undefined && assetEndTime !== undefined && assetEndTime <= assetStartTime) {
      p.problem('asset_end_time: must be after asset_start_time');
    }
    const format = extension as StoryboardFormat;
    const imageFormat = format === 'vtt' || format === 'json' ? p.oneOf('format', ['jpg', 'png', 'webp'] as const, 'jpg') : (format satisfies ThumbnailFormat);
    return {
      kind: 'storyboard',
      format,
      imageFormat,
      ...(assetStartTime !== undefined ? { assetStartTime } : {}),
      ...(assetEndTime !== undefined ? { assetEndTime } : {}),
      ...p.unsupported(['program_start_time', 'program_end_time']),
    };
  },
};

/** Reads parameters, collecting one problem per bad one. */
class Params {
  readonly problems: string[] = [];
  private readonly bad = new Set<string>();

  constructor(private readonly values: Readonly<Record<string, string>>) {}

  problem(message: string): void {
    this.problems.push(message);
  }

  ok(name: string): boolean {
    return !this.bad.has(name);
  }

  /** A finite decimal number, at least `min` when given. */
  number(name: string, min?: number): number | undefined {
    const raw = this.values[name];
    if (raw === undefined) return undefined;
    const value = /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isFinite(value)) return this.refuse(name, `${name}: must be a number of seconds, got ${JSON.stringify(raw)}`);
    if (min !== undefined && value < min) return this.refuse(name, `${name}: must be at least ${min}, got ${raw}`);
    return value;
  }

  integer(name: string, min: number, max: number): number | undefined {
    const raw = this.values[name];
    if (raw === undefined) return undefined;
    const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(value) || value < min || value > max) {
      return this.refuse(name, `${name}: must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return value;
  }

  /** A side of the delivered image in pixels. */
  size(name: string, max: number): number | undefined {
    return this.integer(name, 1, max);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.values[name];
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.refuse(name, `${name}: must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
    return fallback;
  }

  flag(name: string): boolean {
    const raw = this.values[name];
    if (raw === undefined) return false;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.refuse(name, `${name}: must be true or false, got ${JSON.stringify(raw)}`);
    return false;
  }

  /**
   * Mux's parameters on a live stream's program date time (instant clipping): recordings here carry no
   * EXT-X-PROGRAM-DATE-TIME to match them against, so a request using one is refused rather than answered
   * with the wrong picture.
   */
  unsupported(names: string[]): Record<string, never> {
    for (const name of names) {
      if (this.values[name] !== undefined) this.refuse(name, `${name}: not supported (recordings carry no program date time); use time or asset_start_time`);
    }
    return {};
  }

  private refuse(name: string, message: string): undefined {
    this.bad.add(name);
    this.problems.push(message);
    return undefined;
  }
}
