import { pcmArgs } from '@platform/captions';

/** An alternate audio track's encode: AAC-LC stereo 48 kHz, as the ladder's own audio. */
export const TRACK_AUDIO = { codec: 'aac', bitrate: 128_000, channels: 2, sampleRate: 48_000 } as const;

/** The presentation time of each stream's first frame in one segment (seconds): where a rendition's timeline starts. */
export function buildStartTimeProbeArgs(segment: string): string[] {
  return ['-v', 'error', '-show_entries', 'stream=codec_type,start_time', '-print_format', 'json', segment];
}

export interface AudioRenditionOptions {
  outputDir: string;
  /** The video's duration: the audio is cut there, or padded with silence to it. */
  durationSeconds: number;
  /**
   * Where the audio's first sample goes on the MPEG-TS timeline (seconds): the video's first frame, so
   * the alternate audio lines up with the variants as their muxed audio does.
   */
  timelineStart: number;
  segmentSeconds: number;
}

/**
 * An audio file as an alternate audio rendition of HLS: its first audio stream decoded, padded with
 * silence or cut to the video's duration, encoded as the ladder's audio, segmented like the video
 * (MPEG-TS, `segment_NNN.ts` and `index.m3u8` in `outputDir`). With no mux delay, `-output_ts_offset`
 * puts the first sample at the video's first frame, as the variants' muxed audio has it.
 */
export function buildAudioRenditionArgs(input: string, o: AudioRenditionOptions): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-nostats',
    '-progress',
    'pipe:1',
    '-i',
    input,
    '-map',
    '0:a:0',
    '-vn',
    '-af',
    'apad',
    '-t',
    o.durationSeconds.toFixed(3),
    '-c:a',
    TRACK_AUDIO.codec,
    '-b:a',
    String(TRACK_AUDIO.bitrate),
    '-ac',
    String(TRACK_AUDIO.channels),
    '-ar',
    String(TRACK_AUDIO.sampleRate),
    '-muxdelay',
    '0',
    '-muxpreload',
    '0',
    '-output_ts_offset',
    o.timelineStart.toFixed(6),
    '-f',
    'hls',
    '-hls_time',
    String(o.segmentSeconds),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'mpegts',
    '-hls_segment_filename',
    `${o.outputDir}/segment_%03d.ts`,
    `${o.outputDir}/index.m3u8`,
  ];
}

/** The first audio stream of a file (a span of stored segments) as the speech recognizer's PCM, into `output`. */
export function buildPcmFileArgs(input: string, output: string): string[] {
  return ['-hide_banner', '-nostdin', '-y', '-nostats', '-progress', 'pipe:1', ...pcmArgs(input, output)];
}
