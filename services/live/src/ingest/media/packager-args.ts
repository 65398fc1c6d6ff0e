import path from 'node:path';
import { LiveRung } from './live-ladder';

/** What the packager reads and how its rungs are made from it (built by contentInput or slateInput). */
export interface PackagerInput {
  /** Input options and `-i …` (one or more inputs). */
  args: string[];
  /** Stream specifiers of the picture and the sound (`0:v`, `1:a`); undefined when there is none. */
  video?: string;
  audio?: string;
  /** A trailing `?` on the maps: the input may lack that stream (an encoder's media not probed). */
  optional?: boolean;
  /** The source rung stream-copies the picture (H.264) / the sound (AAC); otherwise they are encoded. */
  copyVideo: boolean;
  copyAudio: boolean;
  /** Filters applied before every rung (slate: the image fitted to the frame). */
  videoFilter?: string;
  /** Key frames of encoded rungs: the input's own (`source`: aligned with the copied rung), or every N frames (slate). */
  keyFrames: 'source' | { everyFrames: number };
  /** x264 `-tune`: `zerolatency` for an encoder's picture, `stillimage` for slate. */
  tune: 'zerolatency' | 'stillimage';
  /** `bitrate`: each rung's target (capped, as the VOD ladder); `quality`: x264's default CRF (slate is a still). */
  rateControl: 'bitrate' | 'quality';
  /** AAC bit rate when the sound is encoded. */
  audioBitrate: string;
}

export interface PackagerArgsOptions {
  input: PackagerInput;
  rungs: readonly LiveRung[];
  segmentSeconds: number;
  workDir: string;
  /** Segment and playlist names start with it (one span of a recording). */
  segmentPrefix: string;
  /**
   * `hls` (default): ffmpeg's HLS muxer writes each rung's segments and playlist into its folder.
   * `pipes`: each rung is one MPEG-TS stream on file descriptor 3 + its index, flushed packet by packet,
   * for the LL-HLS packager to cut into parts (ffmpeg's muxer cuts only at key frames).
   */
  output?: 'hls' | 'pipes';
}

/** Where a rung's segments are written: the work folder for the encoder's own, a sub-folder for the others. */
export function rungDir(workDir: string, rung: LiveRung, index: number): string {
  return index === 0 ? workDir : path.join(workDir, rung.folder);
}

/**
 * ffmpeg's arguments for one span of a live recording: one decode feeding every rung (a split, then a
 * scale per lower rung), each rung its own HLS output of `segmentSeconds` segments cut at key frames.
 * Encoded rungs take their key frames from the input (`-force_key_frames source`), so every rung is
 * cut at the same instants as the copied one and players switch between them cleanly.
 */
export function packagerArgs(o: PackagerArgsOptions): string[] {
  const { input, rungs } = o;
  const encodedVideo = input.video === undefined ? [] : rungs.map((_, i) => i).filter((i) => i > 0 || !input.copyVideo);
  const args = ['-v', 'error', ...input.args];
  if (encodedVideo.length > 0) args.push('-filter_complex', videoGraph(input, rungs, encodedVideo));
  rungs.forEach((rung, i) => args.push(...rungOutput(o, rung, i, encodedVideo.includes(i))));
  return args;
}

function videoGraph(input: PackagerInput, rungs: readonly LiveRung[], encoded: number[]): string {
  const scaleOf = (i: number) => {
    const scale = rungs[i].scale;
    // fitted, not stretched: a reconnect at another shape keeps the rung's frame (padded)
    return scale
      ? `scale=${scale.width}:${scale.height}:force_original_aspect_ratio=decrease,pad=${scale.width}:${scale.height}:(ow-iw)/2:(oh-ih)/2`
      : undefined;
  };
  if (encoded.length === 1) {
    const chain = [input.videoFilter, scaleOf(encoded[0])].filter((f) => f !== undefined).join(',');
    return `[${input.video}]${chain || 'null'}[v${encoded[0]}]`;
  }
  const pre = input.videoFilter ? `${input.videoFilter},` : '';
  const split = `[${input.video}]${pre}split=${encoded.length}${encoded.map((i) => `[s${i}]`).join('')}`;
  return [split, ...encoded.map((i) => `[s${i}]${scaleOf(i) ?? 'null'}[v${i}]`)].join(';');
}

function rungOutput(o: PackagerArgsOptions, rung: LiveRung, index: number, encoded: boolean): string[] {
  const { input } = o;
  const opt = input.optional ? '?' : '';
  const args: string[] = [];
  if (input.video !== undefined) args.push('-map', encoded ? `[v${index}]` : `${input.video}${opt}`);
  if (input.audio !== undefined) args.push('-map', `${input.audio}${opt}`);
  if (input.video !== undefined) args.push(...(encoded ? videoCodec(input, rung) : ['-c:v', 'copy']));
  if (input.audio !== undefined) args.push(...(input.copyAudio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', input.audioBitrate]));
  // one PES per audio frame too (the muxer gathers 2930 bytes by default): parts cut anywhere, nothing held back
  if (o.output === 'pipes') return [...args, '-f', 'mpegts', '-pes_payload_size', '0', '-flush_packets', '1', `pipe:${3 + index}`];
  const dir = rungDir(o.workDir, rung, index);
  args.push(
    '-f',
    'hls',
    '-hls_time',
    String(o.segmentSeconds),
    '-hls_list_size',
    '0',
    '-hls_playlist_type',
    'event',
    '-hls_flags',
    'independent_segments+temp_file',
    '-hls_segment_filename',
    path.join(dir, `${o.segmentPrefix}%05d.ts`),
    path.join(dir, `${o.segmentPrefix}index.m3u8`),
  );
  return args;
}

function videoCodec(input: PackagerInput, rung: LiveRung): string[] {
  // with the source's key frames: no key frame of x264's own (its default GOP is 250 frames), and no frame
  // dropped or repeated (a dropped source key frame would lose its forced one)
  const keyFrames =
    input.keyFrames === 'source'
      ? ['-force_key_frames', 'source', '-g', '100000', '-fps_mode', 'passthrough']
      : ['-g', String(input.keyFrames.everyFrames), '-keyint_min', String(input.keyFrames.everyFrames)];
  const rate =
    input.rateControl === 'bitrate'
      ? ['-b:v', String(rung.videoBitrate), '-maxrate', String(Math.round(rung.videoBitrate * 1.07)), '-bufsize', String(Math.round(rung.videoBitrate * 1.5))]
      : [];
  return ['-c:v', 'libx264', '-preset', 'veryfast', '-tune', input.tune, '-pix_fmt', 'yuv420p', ...rate, ...keyFrames, '-sc_threshold', '0'];
}
