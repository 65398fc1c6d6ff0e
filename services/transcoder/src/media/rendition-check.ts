import { TEST_ASSET_SECONDS } from './ffmpeg-args';
import { FfprobeOutput, ProbedAsset } from './probe.types';

/** A rendition below this bit rate carries no media (an empty or headers-only segment). */
export const MIN_BANDWIDTH = 1000;

/** How much shorter than the input's declared duration a rendition may be (key frames, audio priming, rounding). */
export function durationTolerance(expectedSeconds: number): number {
  return Math.max(1, expectedSeconds * 0.02);
}

/**
 * How long a rendition of the input must play: its video track's duration (the segmenter cuts on video,
 * so audio running on after the picture ends does not count), else its audio's, else the container's;
 * a test asset's first 10 s.
 */
export function expectedRenditionSeconds(probed: ProbedAsset, test: boolean): number {
  const main = probed.tracks.find((t) => t.type === 'video') ?? probed.tracks.find((t) => t.type === 'audio');
  const seconds = main?.duration ?? probed.duration;
  return test ? Math.min(seconds, TEST_ASSET_SECONDS) : seconds;
}

export interface SegmentFacts {
  uri: string;
  duration: number;
  bytes: number;
}

/**
 * A rendition no player should be given. `shortfall` is set when it plays for less than the input
 * declares: the input itself is truncated or damaged (its media is not all there).
 */
export class RenditionError extends Error {
  constructor(
    readonly rendition: string,
    readonly problem: string,
    readonly shortfall?: { playableSeconds: number; expectedSeconds: number },
  ) {
    super(`${rendition}: ${problem}`);
    this.name = 'RenditionError';
  }

  /** What the asset's errors (or warning) say about it. */
  get userMessage(): string {
    if (!this.shortfall) return 'The input file could not be made into a playable rendition.';
    const { playableSeconds, expectedSeconds } = this.shortfall;
    return `The input file is incomplete: it declares ${expectedSeconds.toFixed(1)} seconds of media but only ${playableSeconds.toFixed(1)} seconds could be read (a truncated or damaged file).`;
  }
}

/**
 * Checks a finished variant's segments before anything lists it: there are segments, none is empty,
 * together they last what the input declares (within `durationTolerance`), and they carry enough bits
 * to hold media. `expectedSeconds` 0 means the duration is unknown (only the other checks apply).
 */
export function checkSegments(rendition: string, segments: SegmentFacts[], expectedSeconds: number): void {
  if (segments.length === 0) throw new RenditionError(rendition, 'lists no segments');
  const empty = segments.find((s) => s.bytes === 0);
  if (empty) throw new RenditionError(rendition, `segment ${empty.uri} is empty`);
  const playableSeconds = segments.reduce((sum, s) => sum + (Number.isFinite(s.duration) && s.duration > 0 ? s.duration : 0), 0);
  if (expectedSeconds > 0 && playableSeconds < expectedSeconds - durationTolerance(expectedSeconds)) {
    throw new RenditionError(rendition, `lasts ${playableSeconds.toFixed(3)} s of the ${expectedSeconds.toFixed(3)} s declared`, {
      playableSeconds,
      expectedSeconds,
    });
  }
  const bits = segments.reduce((sum, s) => sum + s.bytes * 8, 0);
  if (playableSeconds <= 0 || bits / playableSeconds < MIN_BANDWIDTH) {
    throw new RenditionError(rendition, `carries ${bits} bits in ${playableSeconds.toFixed(3)} s, too few for media`);
  }
}

/**
 * Checks ffprobe's decode of the start of the first segment (`buildSegmentProbeArgs` counts the frames
 * it decodes): the video (or, audio only, the audio) gave at least one frame, and the video its size.
 */
export function checkDecoded(rendition: string, probe: FfprobeOutput, expectVideo: boolean): void {
  const streams = probe.streams ?? [];
  const main = streams.find((s) => s.codec_type === (expectVideo ? 'video' : 'audio'));
  if (!main) throw new RenditionError(rendition, `its first segment has no ${expectVideo ? 'video' : 'audio'} stream`);
  if (!(Number(main.nb_read_frames) > 0)) throw new RenditionError(rendition, `no ${expectVideo ? 'video' : 'audio'} frame of its first segment decodes`);
  if (expectVideo && !(Number(main.width) > 0 && Number(main.height) > 0)) throw new RenditionError(rendition, 'its video has no frame size');
}
