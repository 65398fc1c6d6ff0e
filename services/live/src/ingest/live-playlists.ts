import { LatencyMode } from '../live-streams/live-stream.entity';
import { CaptionChannel, closedCaptionMedia, quoted } from './captions';
import { SEGMENT_SECONDS } from './hls-packager';

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
 * The live edge's media playlist: the last WINDOW_SECONDS of segments (at least three), numbered by
 * their place in the recording (MEDIA-SEQUENCE) with the discontinuities that slid out counted
 * (DISCONTINUITY-SEQUENCE); its segments are the recording's (`../{variant}/…`: `live` for the
 * media, `subs` for generated subtitles).
 */
export function windowPlaylist(segments: readonly PlaylistSegment[], ended: boolean, latencyMode: LatencyMode, variant = LIVE_VARIANT): string {
  let first = segments.length;
  let kept = 0;
  while (first > 0 && (segments.length - first < 3 || kept + segments[first - 1].duration <= WINDOW_SECONDS)) {
    first -= 1;
    kept += segments[first].duration;
  }
  const listed = segments.slice(first);
  const slidOut = segments.slice(0, first).filter((s) => s.discontinuity).length;
  const target = Math.max(SEGMENT_SECONDS[latencyMode], ...listed.map((s) => Math.ceil(s.duration)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${slidOut}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  for (const s of listed) {
    if (s.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${s.duration.toFixed(6)},`, `../${variant}/${s.name}`);
  }
  if (ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
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
