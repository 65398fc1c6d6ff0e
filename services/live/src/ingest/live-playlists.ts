import { LatencyMode } from '../live-streams/live-stream.entity';
import { CaptionChannel, closedCaptionMedia, quoted } from './captions';
import { SEGMENT_SECONDS } from './hls-packager';
import type { ListedPart } from './low-latency/part-segmenter';

export const LIVE_VARIANT = 'live';
/** The live edge: a sliding window over the recording's segments, what a live stream's playback id plays. */
export const WINDOW_VARIANT = 'window';
export const LIVE_EDGE_MASTER = 'live-edge.m3u8';
/** How much the sliding window keeps (at least three segments). */
export const WINDOW_SECONDS = 30;

/** A segment as a media playlist lists it. */
export interface PlaylistSegment {
  name: string;
  duration: number;
  /** The first segment of a span after another (a reconnect, slate, or back from slate). */
  discontinuity: boolean;
}

/** The recording's media playlist: EVENT while live, VOD with EXT-X-ENDLIST once closed. */
export function recordingPlaylist(segments: readonly PlaylistSegment[], ended: boolean, latencyMode: LatencyMode): string {
  const target = Math.max(SEGMENT_SECONDS[latencyMode], ...segments.map((s) => Math.ceil(s.duration)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    `#EXT-X-PLAYLIST-TYPE:${ended ? 'VOD' : 'EVENT'}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  for (const s of segments) {
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${s.duration.toFixed(6)},`, s.name);
  }
  if (ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** The segments a recording playlist lists, with their durations and discontinuities (what `recordingPlaylist` wrote). */
export function parseRecordingPlaylist(text: string): PlaylistSegment[] {
  const segments: PlaylistSegment[] = [];
  let duration = 0;
  let discontinuity = false;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    else if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice('#EXTINF:'.length)) || 0;
    else if (line !== '' && !line.startsWith('#')) {
      segments.push({ name: line, duration, discontinuity });
      duration = 0;
      discontinuity = false;
    }
  }
  return segments;
}

/**
 * What a low-latency live edge lists besides its segments (LL-HLS, RFC 8216bis): the parts of its
 * last segments and of the segment under way, the part to come, and the other rungs' positions.
 */
export interface LowLatencyListing {
  /** EXT-X-PART-INF:PART-TARGET (seconds). */
  partTarget: number;
  /** The parts of recent segments, by segment name (listed for those within three target durations of the end). */
  partsOf: ReadonlyMap<string, readonly ListedPart[]>;
  /** The parts of the segment under way (after the listed segments). */
  open: readonly ListedPart[];
  /** The segment under way begins a span after another (a reconnect, slate, or back from slate). */
  openDiscontinuity: boolean;
  /** The next part's name (EXT-X-PRELOAD-HINT), while the span runs. */
  preloadHint?: string;
  /** The other rungs' live-edge folders (EXT-X-RENDITION-REPORT). */
  reports: readonly string[];
}

/**
 * The live edge's media playlist: the last WINDOW_SECONDS of segments (at least three), numbered by
 * their place in the recording (MEDIA-SEQUENCE) with the discontinuities that slid out counted
 * (DISCONTINUITY-SEQUENCE); its segments are the recording's (`../{variant}/…`: `live` for the
 * media, `subs` for generated subtitles). With `lowLatency` it is an LL-HLS playlist: blocking reload
 * and delta updates offered (EXT-X-SERVER-CONTROL, served by the playback host), parts, the preload
 * hint and rendition reports.
 */
export function windowPlaylist(
  segments: readonly PlaylistSegment[],
  ended: boolean,
  latencyMode: LatencyMode,
  variant = LIVE_VARIANT,
  lowLatency?: LowLatencyListing,
): string {
  let first = segments.length;
  let kept = 0;
  while (first > 0 && (segments.length - first < 3 || kept + segments[first - 1].duration <= WINDOW_SECONDS)) {
    first -= 1;
    kept += segments[first].duration;
  }
  const listed = segments.slice(first);
  const slidOut = segments.slice(0, first).filter((s) => s.discontinuity).length;
  const target = Math.max(SEGMENT_SECONDS[latencyMode], ...listed.map((s) => Math.ceil(s.duration)));
  const ll = lowLatency && !ended ? lowLatency : undefined;
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${ll ? 9 : 3}`,
    `#EXT-X-TARGETDURATION:${target}`,
    ...(ll ? lowLatencyHeader(ll, target) : []),
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${slidOut}`,
    ...(ll ? [] : ['#EXT-X-INDEPENDENT-SEGMENTS']),
  ];
  const withParts = ll ? segmentsWithParts(listed, ll, 3 * target) : 0;
  const uri = (name: string) => `../${variant}/${name}`;
  for (const [i, s] of listed.entries()) {
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    if (ll && i >= listed.length - withParts) lines.push(...(ll.partsOf.get(s.name) ?? []).map((p) => partLine(p, uri)));
    lines.push(`#EXTINF:${s.duration.toFixed(6)},`, uri(s.name));
  }
  if (ll) lines.push(...lowLatencyTail(ll, segments, uri));
  if (ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

function lowLatencyHeader(ll: LowLatencyListing, target: number): string[] {
  return [
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=${(6 * target).toFixed(1)},PART-HOLD-BACK=${(3 * ll.partTarget).toFixed(3)}`,
    `#EXT-X-PART-INF:PART-TARGET=${ll.partTarget.toFixed(3)}`,
  ];
}

/** How many of the last listed segments get their parts: those ending within `seconds` of the playlist's end. */
function segmentsWithParts(listed: readonly PlaylistSegment[], ll: LowLatencyListing, seconds: number): number {
  let total = ll.open.reduce((sum, p) => sum + p.duration, 0);
  let n = 0;
  while (n < listed.length && total < seconds) {
    total += listed[listed.length - 1 - n].duration;
    n += 1;
  }
  return n;
}

function partLine(part: ListedPart, uri: (name: string) => string): string {
  return `#EXT-X-PART:DURATION=${part.duration.toFixed(6)},URI="${uri(part.name)}"${part.independent ? ',INDEPENDENT=YES' : ''}`;
}

/** The segment under way, the preload hint and the rendition reports (every rung is at the same part). */
function lowLatencyTail(ll: LowLatencyListing, segments: readonly PlaylistSegment[], uri: (name: string) => string): string[] {
  const lines: string[] = [];
  if (ll.open.length > 0 && ll.openDiscontinuity) lines.push('#EXT-X-DISCONTINUITY');
  lines.push(...ll.open.map((p) => partLine(p, uri)));
  if (ll.preloadHint) lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${uri(ll.preloadHint)}"`);
  const last = segments[segments.length - 1];
  const [msn, lastPart] =
    ll.open.length > 0 ? [segments.length, ll.open.length - 1] : [segments.length - 1, (last ? (ll.partsOf.get(last.name)?.length ?? 0) : 0) - 1];
  if (msn < 0) return lines;
  for (const folder of ll.reports) {
    lines.push(`#EXT-X-RENDITION-REPORT:URI="../${folder}/index.m3u8",LAST-MSN=${msn}${lastPart >= 0 ? `,LAST-PART=${lastPart}` : ''}`);
  }
  return lines;
}

/** A segmented WebVTT rendition (generated subtitles) of a master playlist. */
export interface SubtitlesRendition {
  name: string;
  languageCode: string;
  /** Its media playlist, relative to the master. */
  uri: string;
}

/** One rendition of a live master playlist. */
export interface LiveMasterVariant {
  /** Its media playlist, relative to the master: `live/index.m3u8`, `window-360p/index.m3u8`. */
  uri: string;
  bandwidth: number;
  /** Absent for audio-only renditions. */
  width?: number;
  height?: number;
}

export interface MasterOptions {
  /** `embedded_subtitles` channels: CLOSED-CAPTIONS renditions (CEA-608 in the video). */
  captions?: readonly CaptionChannel[];
  subtitles?: SubtitlesRendition;
}

/**
 * The master playlist of a recording (or of its live edge): its renditions, the encoder's own first
 * (players start there), with the stream's `embedded_subtitles` channels as CLOSED-CAPTIONS
 * renditions and its generated subtitles as a SUBTITLES rendition.
 */
export function liveMasterPlaylist(variants: readonly LiveMasterVariant[], options: MasterOptions = {}): string {
  const { captions = [], subtitles } = options;
  const withCaptions = variants[0]?.width !== undefined && captions.length > 0;
  const media = [
    ...(withCaptions ? closedCaptionMedia(captions) : []),
    ...(subtitles
      ? [
          `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="${quoted(subtitles.name)}",LANGUAGE="${quoted(subtitles.languageCode)}",DEFAULT=NO,AUTOSELECT=YES,URI="${subtitles.uri}"`,
        ]
      : []),
  ];
  const groups = `${withCaptions ? ',CLOSED-CAPTIONS="cc"' : ''}${subtitles ? ',SUBTITLES="subs"' : ''}`;
  const streams = variants.map((v) => {
    const resolution = v.width !== undefined && v.height !== undefined ? `,RESOLUTION=${v.width}x${v.height}` : '';
    return `#EXT-X-STREAM-INF:BANDWIDTH=${v.bandwidth}${resolution}${groups}\n${v.uri}\n`;
  });
  return `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n${media.map((l) => `${l}\n`).join('')}${streams.join('')}`;
}
