import { TS_CLOCK } from './clip-plan';
import { PtsRange } from '@platform/media';

/** libx264 for the re-encoded edges of a smart cut: a GOP or two at most, so speed first, at a quality above the usual source's. */
export const EDGE_ENCODE = { preset: 'ultrafast', crf: 17 } as const;
/** libx264 and AAC for a whole cut that cannot be copied: an intermediate the clip's own ladder is made from. */
export const FULL_ENCODE = { preset: 'veryfast', crf: 18, audioBitrate: 192_000, keyFrameSeconds: 2 } as const;

const COMMON = ['-hide_banner', '-nostdin', '-y', '-v', 'error'];
/** Seconds with the precision of the 90 kHz clock (as ffmpeg's time options take them). */
export const seconds = (ticks: number): string => (ticks / TS_CLOCK).toFixed(6);

/** ffmpeg reads several MPEG-TS segment files as one stream (they are pieces of one TS stream). */
export function concatInput(files: readonly string[]): string {
  if (files.some((f) => f.includes('|'))) throw new Error('segment paths must not contain "|"');
  return files.length === 1 ? files[0] : `concat:${files.join('|')}`;
}

/** The streams of a segment: what a smart cut depends on, and where each starts (an audio-only span's first frame). */
export function buildClipStreamsArgs(segment: string): string[] {
  return ['-v', 'error', '-show_entries', 'stream=index,codec_type,codec_name,profile,pix_fmt,field_order,start_time', '-print_format', 'json', segment];
}

/** Every video packet of a span, one `packet|pts=…|dts=…|pos=…|flags=…` line each (streamed: a long clip has many). */
export function buildClipPacketArgs(input: string): string[] {
  return ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts,dts,pos,flags', '-print_format', 'compact', input];
}

export interface EdgeOptions {
  range: PtsRange;
  dtsDelay: number;
  /** libx264's name for the source's profile (`baseline`, `main`, `high`). */
  profile: string;
  pixFmt: string;
  /** The PIDs of the source's program, so the edge's packets join the copied ones as one stream. */
  pmtPid: number;
  videoPid: number;
}

/**
 * One re-encoded edge of a smart cut: the segment is decoded with its own timestamps (`-copyts`), the
 * frames of `range` kept by their exact PTS, and encoded with libx264 in the source's profile and pixel
 * format, without B-frames, each frame keeping its PTS (`-fps_mode passthrough`, the 90 kHz time base)
 * and getting DTS = PTS − the copied GOPs' delay (`setts`), into MPEG-TS with the source's PIDs and no
 * timestamp offset. Its bytes then go before (or after) the copied GOPs.
 */
export function buildClipEdgeArgs(segment: string, output: string, o: EdgeOptions): string[] {
  return [
    ...COMMON,
    '-copyts',
    '-i',
    segment,
    '-map',
    '0:v:0',
    '-vf',
    `trim=start_pts=${o.range.from}:end_pts=${o.range.to}`,
    '-fps_mode',
    'passthrough',
    '-enc_time_base',
    '-1',
    '-c:v',
    'libx264',
    '-preset',
    EDGE_ENCODE.preset,
    '-crf',
    String(EDGE_ENCODE.crf),
    '-profile:v',
    o.profile,
    '-pix_fmt',
    o.pixFmt,
    '-bf',
    '0',
    '-bsf:v',
    `setts=dts=PTS-${o.dtsDelay}`,
    '-f',
    'mpegts',
    '-mpegts_copyts',
    '1',
    '-mpegts_pmt_start_pid',
    String(o.pmtPid),
    '-streamid',
    `0:${o.videoPid}`,
    output,
  ];
}

/**
 * The audio of a cut, stream-copied: the AAC frames from the first at or after `range.from` to the last
 * before `range.to` (absolute timestamps, `-copyts`), written with their own timestamps.
 */
export function buildClipAudioArgs(input: string, range: PtsRange, output: string): string[] {
  return [
    ...COMMON,
    '-copyts',
    '-i',
    input,
    '-map',
    '0:a:0',
    '-c',
    'copy',
    '-ss',
    seconds(range.from),
    '-to',
    seconds(range.to),
    '-output_ts_offset',
    seconds(range.from),
    '-f',
    'mpegts',
    '-mpegts_copyts',
    '1',
    output,
  ];
}

/** The clip from its video (edges and copied GOPs, one TS stream) and its audio, both with the source's timestamps. */
export function buildClipMuxArgs(video: string, audio: string | undefined, output: string): string[] {
  const args = [...COMMON, '-copyts', '-i', video];
  if (audio) args.push('-copyts', '-i', audio);
  args.push('-map', '0:v:0');
  if (audio) args.push('-map', '1:a:0');
  return [...args, '-c', 'copy', '-f', 'mpegts', output];
}

export interface EncodeSpan {
  input: string;
  range: PtsRange;
}

/**
 * A cut that cannot be copied: each span decoded with its own timestamps, its frames and samples of
 * `range` kept (by exact PTS; audio by time, to the sample), the spans joined (`concat`), and encoded
 * with libx264 (key frames every 2 s) and AAC. Audio-only media leaves the video out.
 */
export function buildClipEncodeArgs(spans: readonly EncodeSpan[], media: { video: boolean; audio: boolean }, output: string): string[] {
  const args = [...COMMON];
  for (const span of spans) args.push('-copyts', '-i', span.input);
  const graph: string[] = [];
  const joined: string[] = [];
  spans.forEach((span, i) => {
    if (media.video) {
      graph.push(`[${i}:v:0]trim=start_pts=${span.range.from}:end_pts=${span.range.to},setpts=PTS-STARTPTS[v${i}]`);
      joined.push(`[v${i}]`);
    }
    if (media.audio) {
      graph.push(`[${i}:a:0]atrim=start=${seconds(span.range.from)}:end=${seconds(span.range.to)},asetpts=PTS-STARTPTS[a${i}]`);
      joined.push(`[a${i}]`);
    }
  });
  let [video, audio] = ['[v0]', '[a0]'];
  if (spans.length > 1) {
    [video, audio] = ['[v]', '[a]'];
    const outputs = `${media.video ? video : ''}${media.audio ? audio : ''}`;
    graph.push(`${joined.join('')}concat=n=${spans.length}:v=${media.video ? 1 : 0}:a=${media.audio ? 1 : 0}${outputs}`);
  }
  args.push('-filter_complex', graph.join(';'));
  if (media.video) {
    args.push('-map', video, '-c:v', 'libx264', '-preset', FULL_ENCODE.preset, '-crf', String(FULL_ENCODE.crf), '-pix_fmt', 'yuv420p');
    args.push('-force_key_frames', `expr:gte(t,n_forced*${FULL_ENCODE.keyFrameSeconds})`);
  }
  if (media.audio) args.push('-map', audio, '-c:a', 'aac', '-b:a', String(FULL_ENCODE.audioBitrate));
  return [...args, '-f', 'mpegts', output];
}
