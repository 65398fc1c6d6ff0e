import { Cue, cuesWithin, timestampMap, vttCue, webVtt } from './cues';

/** One WebVTT segment of a subtitle rendition: `name` beside its media playlist. */
export interface SubtitleSegment {
  name: string;
  duration: number;
  /** The first segment of a span after another (the video's playlist has a discontinuity there). */
  discontinuity: boolean;
  text: string;
}

/**
 * A segment of the video a subtitle rendition follows: its duration, and the span it belongs to (a
 * run of segments between discontinuities): where the span starts on the asset's timeline and the
 * MPEG-TS presentation time (90 kHz) its first frame has.
 */
export interface TimelineSegment {
  duration: number;
  discontinuity: boolean;
  spanStart: number;
  mpegTs: number;
}

/** Names of a subtitle rendition's segments: `segment_000.vtt`, … (as the video's `segment_000.ts`). */
export const subtitleSegmentName = (index: number): string => `segment_${String(index).padStart(3, '0')}.vtt`;

/**
 * The WebVTT segment of [start, end): the cues shown then (one across an edge is in both segments,
 * which players show once), cue times on the media's timeline, with the `X-TIMESTAMP-MAP` that puts
 * time `local` (0 unless given) at `mpegTs`, the video's presentation time there (90 kHz).
 */
export function vttSegment(cues: readonly Cue[], start: number, end: number, mpegTs: number, local = 0): string {
  if (local === 0) return webVtt(cuesWithin(cues, start, end), mpegTs);
  return [`WEBVTT\n${timestampMap(mpegTs, local)}\n`, ...cuesWithin(cues, start, end).map(vttCue)].join('\n');
}

/**
 * A whole subtitle track cut into the segments of the video it follows (subtitle segment N covers
 * video segment N, each span's segments mapped to that span's presentation times), the last one
 * reaching past any cue that ends later.
 */
export function segmentCues(cues: readonly Cue[], timeline: readonly TimelineSegment[]): SubtitleSegment[] {
  let start = 0;
  return timeline.map((t, i) => {
    const end = i === timeline.length - 1 ? Infinity : start + t.duration;
    const segment = {
      name: subtitleSegmentName(i),
      duration: t.duration,
      discontinuity: t.discontinuity,
      text: vttSegment(cues, start, end, t.mpegTs, t.spanStart),
    };
    start += t.duration;
    return segment;
  });
}

/** The VOD media playlist of a subtitle rendition (RFC 8216: EXTINF per segment, target duration rounded up, the video's discontinuities). */
export function subtitlePlaylist(segments: ReadonlyArray<Pick<SubtitleSegment, 'name' | 'duration' | 'discontinuity'>>): string {
  const target = Math.max(1, ...segments.map((s) => Math.ceil(s.duration)));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
  for (const s of segments) {
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${s.duration.toFixed(6)},`, s.name);
  }
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}
