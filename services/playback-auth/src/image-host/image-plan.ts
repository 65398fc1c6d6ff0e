import { createHash } from 'node:crypto';
import { StoredVariant } from '@platform/media';
import { PlaylistSegment } from '@platform/storage';
import { FrameGeometry, rotated, Size } from './image-geometry';
import { AnimatedRequest, StoryboardRequest, ThumbnailRequest } from './image-request';

/** A video rendition of the asset, with its size. */
export type VideoVariant = StoredVariant & Size;

/** A media playlist's segment with its place on the asset's timeline. */
export interface TimedSegment extends PlaylistSegment {
  /** Seconds from the start of the rendition (the sum of the `#EXTINF` before it). */
  start: number;
}

/** The segments of a media playlist on the asset's timeline. */
export function timedSegments(segments: readonly PlaylistSegment[]): { segments: TimedSegment[]; duration: number } {
  let start = 0;
  const timed = segments.map((s) => {
    const segment = { ...s, start };
    start += s.duration;
    return segment;
  });
  return { segments: timed, duration: start };
}

/** The segment holding `seconds` (the last one from its start on). */
export function segmentAt(segments: readonly TimedSegment[], seconds: number): TimedSegment | undefined {
  let found = segments[0];
  for (const segment of segments) if (segment.start <= seconds) found = segment;
  return found;
}

/**
 * The rendition to decode for a frame of `scaled` size (in the delivered orientation): the smallest at
 * least that large (a pixel of rounding allowed), else the largest. Fewer pixels decode faster, and a
 * downscale from a rendition of about the size loses nothing a bigger one would keep.
 */
export function chooseVariant(variants: readonly VideoVariant[], geometry: Pick<FrameGeometry, 'scaled' | 'rotate'>): VideoVariant {
  const needed = rotated(geometry.scaled, geometry.rotate);
  const bySize = [...variants].sort((a, b) => a.width * a.height - b.width * b.height || a.bandwidth - b.bandwidth);
  return bySize.find((v) => v.width + 1 >= needed.width && v.height + 1 >= needed.height) ?? bySize[bySize.length - 1];
}

/** What an image's media facts are: the asset's timeline and the owner's wishes. */
export interface Timeline {
  /** Seconds the asset lasts (a live recording: so far). */
  duration: number;
  /** Mux's `thumbnail_time`: the default time of a thumbnail. */
  thumbnailTime?: number;
  /** A live stream's playback id while live: thumbnails without a time show its live edge. */
  live: boolean;
}

/** Where a thumbnail is taken: a time on the asset's timeline, or its live edge (the newest frame). */
export type ThumbnailTime = { at: number } | { edge: true };

/**
 * `time` when given (clamped into the asset); else `latest`, or a live stream's playback id while live, its
 * live edge; else the asset's thumbnail_time (clamped), else its middle.
 */
export function thumbnailTime(request: Pick<ThumbnailRequest, 'time' | 'latest'>, timeline: Timeline): ThumbnailTime {
  if (request.latest || (request.time === undefined && timeline.live)) return { edge: true };
  const wanted = request.time ?? timeline.thumbnailTime ?? timeline.duration / 2;
  return { at: clamp(wanted, 0, timeline.duration) };
}

/** An animated image's span, clamped into the asset: at least Mux's 250 ms where the asset is that long. */
export function animatedSpan(request: Pick<AnimatedRequest, 'start' | 'end'>, duration: number): { start: number; end: number } {
  const end = clamp(request.end, 0, duration);
  const start = clamp(Math.min(request.start, end - 0.25), 0, duration);
  return { start, end: Math.max(end, Math.min(duration, start + 0.25)) };
}

/** A storyboard's span: the whole asset, or Mux's asset_start_time/asset_end_time part of it. */
export function storyboardSpan(request: Pick<StoryboardRequest, 'assetStartTime' | 'assetEndTime'>, duration: number): { start: number; end: number } {
  const start = clamp(request.assetStartTime ?? 0, 0, duration);
  const end = clamp(request.assetEndTime ?? duration, start, duration);
  return { start, end };
}

/**
 * Where a made image is kept in the object store: under the asset (deleted with it), named by a hash of
 * everything that decides its bytes, so equal requests share it.
 */
export function imageCacheKey(assetId: string, parts: readonly (string | number | boolean)[], extension: string): string {
  const hash = createHash('sha256')
    .update(['v1', ...parts].join('|'))
    .digest('hex')
    .slice(0, 40);
  return `assets/${assetId}/images/${hash}.${extension}`;
}

/** Seconds to the millisecond, so times that name the same moment share a cache entry. */
export function millis(seconds: number): number {
  return Math.round(seconds * 1000);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}
