import { FfprobeStream } from './ffprobe-output';

/** One `#EXT-X-STREAM-INF` entry of a master playlist. */
export interface VariantStream {
  /** Relative to the master: `720p/index.m3u8`. */
  uri: string;
  /** Peak segment bit rate, bits per second (what RFC 8216 asks BANDWIDTH to be). */
  bandwidth: number;
  averageBandwidth?: number;
  width?: number;
  height?: number;
  frameRate?: number;
  /** RFC 6381 list, e.g. `avc1.64001f,mp4a.40.2`; absent when a codec has no known string. */
  codecs?: string;
}

/** The master playlist listing `variants` in the given order (players start with the first). */
export function buildMasterPlaylist(variants: VariantStream[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const v of variants) {
    const attributes = [`BANDWIDTH=${v.bandwidth}`];
    if (v.averageBandwidth) attributes.push(`AVERAGE-BANDWIDTH=${v.averageBandwidth}`);
    if (v.codecs) attributes.push(`CODECS="${v.codecs}"`);
    if (v.width && v.height) attributes.push(`RESOLUTION=${v.width}x${v.height}`);
    if (v.frameRate && v.frameRate > 0) attributes.push(`FRAME-RATE=${v.frameRate.toFixed(3)}`);
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, v.uri);
  }
  return `${lines.join('\n')}\n`;
}

const AVC_PROFILES: Record<string, string> = {
  Baseline: '4200',
  'Constrained Baseline': '42e0',
  Main: '4d40',
  Extended: '5800',
  High: '6400',
  'High 10': '6e00',
  'High 4:2:2': '7a00',
  'High 4:4:4 Predictive': 'f400',
};
const AAC_PROFILES: Record<string, string> = { LC: 'mp4a.40.2', 'HE-AAC': 'mp4a.40.5', 'HE-AACv2': 'mp4a.40.29', Main: 'mp4a.40.1' };

/** RFC 6381 codec string of one stream as ffprobe describes it, or undefined when unknown. */
export function codecOf(stream: FfprobeStream): string | undefined {
  if (stream.codec_name === 'h264') {
    const profile = AVC_PROFILES[stream.profile ?? ''];
    const level = stream.level ?? -1;
    if (!profile || level <= 0 || level > 255) return undefined;
    return `avc1.${profile}${level.toString(16).padStart(2, '0')}`;
  }
  if (stream.codec_name === 'aac') return AAC_PROFILES[stream.profile ?? ''];
  if (stream.codec_name === 'mp3') return 'mp4a.40.34';
  if (stream.codec_name === 'ac3') return 'ac-3';
  if (stream.codec_name === 'eac3') return 'ec-3';
  return undefined;
}

/** CODECS of a variant: every audio/video stream's string, or undefined when any is unknown (a partial list misleads players). */
export function codecsOf(streams: FfprobeStream[]): string | undefined {
  const media = streams.filter((s) => s.codec_type === 'video' || s.codec_type === 'audio');
  const codecs = media.map(codecOf);
  if (codecs.length === 0 || codecs.some((c) => c === undefined)) return undefined;
  return codecs.join(',');
}

/** Peak and average bit rate of segments of known size (bits per second, rounded up). */
export function measureBandwidth(segments: Array<{ duration: number; bytes: number }>): { peak: number; average: number } {
  const timed = segments.filter((s) => s.duration > 0);
  const seconds = timed.reduce((sum, s) => sum + s.duration, 0);
  const bytes = timed.reduce((sum, s) => sum + s.bytes, 0);
  const peak = timed.reduce((max, s) => Math.max(max, (s.bytes * 8) / s.duration), 0);
  return { peak: Math.ceil(peak), average: seconds > 0 ? Math.ceil((bytes * 8) / seconds) : 0 };
}
