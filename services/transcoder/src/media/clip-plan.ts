import { PlaylistSegment } from '@platform/storage';
import { PtsRange } from '@platform/media';

/** MPEG-TS timestamps tick at 90 kHz. */
export const TS_CLOCK = 90_000;
/** A segment this close to the cut is fetched too: playlist durations are rounded, frames are not. */
const SEGMENT_MARGIN_SECONDS = 0.05;
const SMART_CODECS = ['h264'];
const SMART_PIXEL_FORMATS = ['yuv420p', 'yuvj420p'];
/** H.264 profiles libx264 (8-bit) encodes, so a re-encoded edge can carry the source's profile. */
export const SMART_PROFILES: Record<string, string> = { 'Constrained Baseline': 'baseline', Baseline: 'baseline', Main: 'main', High: 'high' };

/** A run of consecutive segments with no discontinuity between them: one timeline of timestamps. */
export interface SpanChoice {
  /** Playlist indices of its segments, in order. */
  segments: number[];
  /** Seconds of the source at which its first segment starts (the playlist's `#EXTINF` before it). */
  startSeconds: number;
  /** … and at which its last segment ends. */
  endSeconds: number;
}

/**
 * The segments a cut of [start, end) seconds needs, grouped into spans at each discontinuity (a live
 * recording's reconnect or slate). A segment within 50 ms of the cut is taken too, since `#EXTINF`
 * durations are rounded; an extra one costs a fetch, never a frame.
 */
export function chooseSegments(segments: readonly PlaylistSegment[], start: number, end: number): SpanChoice[] {
  const spans: SpanChoice[] = [];
  let at = 0;
  segments.forEach((segment, i) => {
    const from = at;
    at += segment.duration;
    if (at <= start - SEGMENT_MARGIN_SECONDS || from >= end + SEGMENT_MARGIN_SECONDS) return;
    const last = spans[spans.length - 1];
    if (last && !segment.discontinuity && last.segments[last.segments.length - 1] === i - 1) {
      last.segments.push(i);
      last.endSeconds = at;
    } else spans.push({ segments: [i], startSeconds: from, endSeconds: at });
  });
  return spans;
}

/** A video packet of the stored rendition, in decode order, with the segment it came from. */
export interface VideoPacket {
  pts: number;
  dts: number;
  key: boolean;
  segment: number;
}

/** One span as the probe read it. */
export interface SpanMedia extends SpanChoice {
  /** Its video packets in decode order (empty for audio-only media). */
  video: VideoPacket[];
  /** The timestamp of its first segment's start: its first video frame (or, audio-only, its first audio frame). */
  anchorPts: number;
}

/** The stream facts a smart cut depends on (ffprobe's names). */
export interface VideoFacts {
  codec: string;
  profile?: string;
  pixFmt?: string;
  fieldOrder?: string;
}

export interface ClipSource {
  spans: SpanMedia[];
  video?: VideoFacts;
  hasAudio: boolean;
  /** This ffmpeg runs the smart cut's arguments (`-fps_mode`, `-enc_time_base`, the `setts` filter: 5.0 and later). */
  canSmartCut: boolean;
}

/** A GOP edge re-encoded: the frames of `range`, decoded from their whole GOP (`gop`) in the segment that holds it. */
export interface EdgeCut {
  segment: number;
  range: PtsRange;
  gop: PtsRange;
  /** DTS = PTS − this, so decode times run on evenly into (or out of) the copied GOPs. */
  dtsDelay: number;
}

/**
 * How a clip is made. `smart`: whole GOPs copied (`copy`), only the partial GOP at each edge re-encoded
 * (`head`, `tail`; none when the cut falls on key frames); `audio`: audio-only media, stream-copied (every
 * AAC frame is a key frame); `encode`: the whole cut decoded and encoded, when copying is not possible
 * (`reason` says why). `spans` is what each span contributes, in its own timestamps.
 */
export interface ClipPlan {
  path: 'smart' | 'audio' | 'encode';
  reason: string;
  spans: Array<{ span: number; range: PtsRange }>;
  head?: EdgeCut;
  copy?: PtsRange;
  tail?: EdgeCut;
  /** Video frames in the clip (0 without video). */
  frames: number;
}

export class ClipPlanError extends Error {}

/** Seconds of the source → timestamps of a span. */
export const ptsAt = (span: SpanMedia, seconds: number): number => span.anchorPts + Math.round((seconds - span.startSeconds) * TS_CLOCK);

/**
 * Plans the cut of [start, end) seconds: the frames nearest the requested times (a frame is in when it
 * is shown at or after `start` and before `end`, each to within half a frame), then the cheapest way to
 * make them that keeps every frame intact.
 */
export function planClip(source: ClipSource, start: number, end: number): ClipPlan {
  const cuts = source.spans.map((span, i) => ({ span: i, range: cutOfSpan(span, start, end) })).filter((c) => c.range.to > c.range.from);
  if (cuts.length === 0) throw new ClipPlanError(`the source has no media between ${start} s and ${end} s`);
  const frames = source.spans.reduce((n, span, i) => n + framesIn(span.video, cuts.find((c) => c.span === i)?.range), 0);
  if (!source.video) {
    return cuts.length === 1
      ? { path: 'audio', reason: 'audio-only media: every AAC frame is a key frame, so it is stream-copied', spans: cuts, frames: 0 }
      : { path: 'encode', reason: 'audio-only media across a discontinuity (a live reconnect or slate)', spans: cuts, frames: 0 };
  }
  const refusal = smartCutRefusal(source, cuts.length);
  if (refusal) return { path: 'encode', reason: refusal, spans: cuts, frames };
  const [{ span, range }] = cuts;
  return { ...smartCut(source.spans[span], range), spans: cuts, frames };
}

/** Why the edges cannot be re-encoded to join the copied GOPs; undefined when they can. */
function smartCutRefusal(source: ClipSource, spans: number): string | undefined {
  const video = source.video!;
  if (!source.canSmartCut) return 'this ffmpeg predates 5.0 (no -fps_mode, -enc_time_base or setts filter)';
  if (spans > 1) return 'the cut crosses a discontinuity (a live reconnect or slate): its timestamps do not run on';
  if (!SMART_CODECS.includes(video.codec)) return `the video is ${video.codec}, not H.264: re-encoded edges could not match it`;
  if (!SMART_PIXEL_FORMATS.includes(video.pixFmt ?? '')) return `the video's pixel format ${video.pixFmt ?? 'unknown'} is not 8-bit 4:2:0`;
  if (video.profile === undefined || SMART_PROFILES[video.profile] === undefined)
    return `the H.264 profile ${video.profile ?? 'unknown'} is not one libx264 matches`;
  if (video.fieldOrder !== undefined && !['progressive', 'unknown'].includes(video.fieldOrder)) return `the video is interlaced (${video.fieldOrder})`;
  return undefined;
}

/** The presented-time range of a span's frames (or, audio-only, its samples: within the span's own time) inside [start, end). */
function cutOfSpan(span: SpanMedia, start: number, end: number): PtsRange {
  if (span.video.length === 0) return { from: ptsAt(span, Math.max(start, span.startSeconds)), to: ptsAt(span, Math.min(end, span.endSeconds)) };
  const from = ptsAt(span, start);
  const to = ptsAt(span, end);
  const shown = presentationOrder(span.video);
  const half = frameTicks(shown) / 2;
  const kept = shown.filter((p) => p.pts >= from - half && p.pts < to - half);
  if (kept.length === 0) return { from, to: from };
  const last = kept[kept.length - 1];
  const after = shown.find((p) => p.pts > last.pts);
  return { from: kept[0].pts, to: after ? after.pts : last.pts + frameTicks(shown) };
}

const framesIn = (video: VideoPacket[], range: PtsRange | undefined): number =>
  range ? video.filter((p) => p.pts >= range.from && p.pts < range.to).length : 0;

const presentationOrder = (video: VideoPacket[]): VideoPacket[] => [...video].sort((a, b) => a.pts - b.pts);

/** The usual frame interval (the median gap between presented frames), in ticks. */
export function frameTicks(shown: VideoPacket[]): number {
  const gaps = shown
    .slice(1)
    .map((p, i) => p.pts - shown[i].pts)
    .filter((g) => g > 0)
    .sort((a, b) => a - b);
  return gaps.length > 0 ? gaps[Math.floor(gaps.length / 2)] : TS_CLOCK / 30;
}

/**
 * Copy from the first key frame at or after the clip's first frame to the last key frame at or before
 * its end (the end itself when the next GOP starts there, or the media ends there); re-encode what lies
 * before and after. Falls back to `encode` when no key frame lies inside the cut, or when a boundary GOP
 * is open (frames decoded after a key frame but shown before it, or the reverse), which a copy would break.
 */
function smartCut(span: SpanMedia, range: PtsRange): Omit<ClipPlan, 'spans' | 'frames'> {
  const keys = span.video.filter((p) => p.key && p.pts >= range.from && p.pts <= range.to);
  const lastShown = span.video.reduce((max, p) => Math.max(max, p.pts), -Infinity);
  const endsMedia = range.to > lastShown;
  const first = keys[0];
  if (!first || (first.pts >= range.to && !endsMedia)) {
    return { path: 'encode', reason: 'the cut lies inside one GOP: there is no whole GOP to copy' };
  }
  const endKey = endsMedia ? undefined : [...keys].reverse().find((k) => k.pts <= range.to);
  const copyTo = endsMedia ? range.to : endKey!.pts;
  for (const key of [first, endKey]) {
    if (key && !isClosedAt(span.video, key))
      return { path: 'encode', reason: `the GOP at ${key.pts} is open (frames decoded after its key frame are shown before it)` };
  }
  if (span.video.some((p) => p.dts > p.pts)) return { path: 'encode', reason: 'decode timestamps run after presentation timestamps' };
  const allKeys = span.video.filter((p) => p.key).map((p) => p.pts);
  const head =
    range.from < first.pts
      ? {
          segment: segmentOf(span, range.from),
          range: { from: range.from, to: first.pts },
          gop: { from: allKeys.filter((k) => k <= range.from).reduce((max, k) => Math.max(max, k), -Infinity), to: first.pts },
          dtsDelay: first.pts - first.dts,
        }
      : undefined;
  const tail =
    endKey && endKey.pts < range.to
      ? {
          segment: endKey.segment,
          range: { from: endKey.pts, to: range.to },
          gop: { from: endKey.pts, to: allKeys.find((k) => k > endKey.pts) ?? Number.MAX_SAFE_INTEGER },
          dtsDelay: endKey.pts - endKey.dts,
        }
      : undefined;
  const copy = copyTo > first.pts ? { from: first.pts, to: copyTo } : undefined;
  const reason =
    head || tail ? 'H.264 with closed GOPs: whole GOPs copied, the partial GOP at each edge re-encoded' : 'both ends fall on GOP boundaries: a remux';
  return { path: 'smart', reason, head, copy, tail };
}

/** No frame decoded before `key` is shown at or after it, and none decoded after it is shown before it. */
function isClosedAt(video: VideoPacket[], key: VideoPacket): boolean {
  const at = video.indexOf(key);
  return video.every((p, i) => (i < at ? p.pts < key.pts : p.pts >= key.pts));
}

/** The segment whose frames include `pts` (the one holding the head's first frame). */
function segmentOf(span: SpanMedia, pts: number): number {
  const packet = span.video.find((p) => p.pts === pts);
  if (!packet) throw new ClipPlanError(`no frame at ${pts}`);
  return packet.segment;
}

/** Seconds a plan's pieces last, for the log: copied, and re-encoded at the edges. */
export function planSeconds(plan: ClipPlan): { copied: number; encoded: number } {
  const length = (r: PtsRange | undefined) => (r ? (r.to - r.from) / TS_CLOCK : 0);
  if (plan.path !== 'smart') {
    const total = plan.spans.reduce((sum, s) => sum + length(s.range), 0);
    return plan.path === 'audio' ? { copied: total, encoded: 0 } : { copied: 0, encoded: total };
  }
  return { copied: length(plan.copy), encoded: length(plan.head?.range) + length(plan.tail?.range) };
}
