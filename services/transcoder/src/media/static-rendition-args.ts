/**
 * ffmpeg arguments of static MP4/M4A renditions and the master MP4. Every input is a stored HLS
 * variant (its local `index.m3u8` and segments); every output is faststart (`moov` before `mdat`, so a
 * player or a download starts before the last byte).
 */

const COMMON = ['-hide_banner', '-nostdin', '-y', '-nostats', '-progress', 'pipe:1'];
const FASTSTART = ['-movflags', '+faststart'];

export interface RemuxOptions {
  /** Keep the video stream; absent: audio only (an M4A). */
  video: boolean;
  /** Keep the audio stream when the input has one. */
  audio: boolean;
}

/**
 * A variant remuxed into one MP4 (or, audio only, an M4A): its H.264 and AAC copied as they are, no
 * decode. The audio map is optional (`?`): a video-only variant gives a video-only file.
 */
export function buildMp4RemuxArgs(playlist: string, output: string, options: RemuxOptions): string[] {
  const maps = [...(options.video ? ['-map', '0:v:0'] : []), ...(options.audio ? ['-map', options.video ? '0:a:0?' : '0:a:0'] : [])];
  return [...COMMON, '-i', playlist, ...maps, '-c', 'copy', ...(options.video ? [] : ['-vn']), ...FASTSTART, '-f', options.video ? 'mp4' : 'ipod', output];
}

/**
 * The master MP4: every stream of the highest-quality stored rendition copied (video and audio when it
 * has them), no decode.
 */
export function buildMasterArgs(playlist: string, output: string): string[] {
  return [...COMMON, '-i', playlist, '-map', '0:v:0?', '-map', '0:a:0?', '-c', 'copy', ...FASTSTART, '-f', 'mp4', output];
}

export interface EncodeOptions {
  width: number;
  height: number;
  /** H.264 bits per second (capped VBR as the ladder's: maxrate 1.07×, buffer 1.5×). */
  videoBitrate: number;
  /** Copy the input's audio (already the ladder's AAC) when it has one. */
  audio: boolean;
  /** libx264 preset; default `veryfast` (the ladder's). */
  preset?: string;
}

/**
 * A size the ladder lacks (e.g. 480p): the video scaled and encoded as the ladder encodes (libx264 High,
 * the rung's bit rate), the audio copied from the variant (it is already AAC), faststart.
 */
export function buildMp4EncodeArgs(playlist: string, output: string, options: EncodeOptions): string[] {
  const rate = options.videoBitrate;
  return [
    ...COMMON,
    '-i',
    playlist,
    '-map',
    '0:v:0',
    ...(options.audio ? ['-map', '0:a:0?'] : []),
    '-vf',
    `scale=${options.width}:${options.height},setsar=1,format=yuv420p`,
    '-c:v',
    'libx264',
    '-preset',
    options.preset ?? 'veryfast',
    '-profile:v',
    'high',
    '-b:v',
    String(rate),
    '-maxrate',
    String(Math.round(rate * 1.07)),
    '-bufsize',
    String(Math.round(rate * 1.5)),
    ...(options.audio ? ['-c:a', 'copy'] : []),
    ...FASTSTART,
    '-f',
    'mp4',
    output,
  ];
}

/** ffprobe of a made file: its container (duration, bit rate) and streams (codecs, frame size). */
export function buildFileProbeArgs(file: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file];
}
