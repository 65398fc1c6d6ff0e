import { durationTolerance } from './rendition-check';
import { isFaststart, Mp4Box } from './mp4-boxes';
import { FfprobeOutput } from './probe.types';

/** What a made MP4/M4A must be before it is reported. */
export interface StaticFileExpectation {
  /** The frame size it must have (0 x 0: any size); absent: no video stream at all (an M4A). */
  video?: { width: number; height: number };
  /** An AAC stream must be there. */
  audio: boolean;
  /** How long its source rendition plays (the sum of its segments), seconds. */
  seconds: number;
}

/** What was read from a made file that passed its checks (reported to the assets service). */
export interface StaticFileFacts {
  width: number;
  height: number;
  /** Bits per second of the whole file (ffprobe's, else size and duration). */
  bitrate: number;
  seconds: number;
}

export class StaticFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'StaticFileError';
  }
}

/**
 * Checks ffprobe's reading of a made file and its top-level boxes: the streams asked for and no other
 * media (H.264 video of the expected size, AAC audio), as long as its source within `durationTolerance`,
 * faststart, media in it. Returns its facts.
 */
export function checkStaticFile(name: string, probe: FfprobeOutput, boxes: readonly Mp4Box[], bytes: number, expected: StaticFileExpectation): StaticFileFacts {
  const streams = probe.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (expected.video) {
    if (video?.codec_name !== 'h264') throw new StaticFileError(name, `has no H.264 video (found ${video?.codec_name ?? 'none'})`);
    const sized = expected.video.width > 0 && expected.video.height > 0;
    if (sized && (video.width !== expected.video.width || video.height !== expected.video.height)) {
      throw new StaticFileError(name, `is ${video.width}x${video.height}, not ${expected.video.width}x${expected.video.height}`);
    }
  } else if (video) throw new StaticFileError(name, 'has a video stream, but is audio only');
  if (expected.audio && audio?.codec_name !== 'aac') throw new StaticFileError(name, `has no AAC audio (found ${audio?.codec_name ?? 'none'})`);
  if (!expected.audio && audio) throw new StaticFileError(name, 'has an audio stream, but its source has none');
  const seconds = Number(probe.format?.duration);
  if (!(seconds > 0)) throw new StaticFileError(name, 'has no duration');
  if (Math.abs(seconds - expected.seconds) > durationTolerance(expected.seconds)) {
    throw new StaticFileError(name, `lasts ${seconds.toFixed(3)} s, its source ${expected.seconds.toFixed(3)} s`);
  }
  if (!isFaststart(boxes)) throw new StaticFileError(name, `is not faststart (top-level boxes: ${boxes.map((b) => b.type).join(', ')})`);
  const probed = Number(probe.format?.bit_rate);
  const bitrate = probed > 0 ? Math.round(probed) : Math.round((bytes * 8) / seconds);
  if (bitrate < 1000) throw new StaticFileError(name, `carries ${bitrate} bit/s, too few for media`);
  return { width: video?.width ?? 0, height: video?.height ?? 0, bitrate, seconds };
}
