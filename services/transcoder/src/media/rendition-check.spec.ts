import { FfprobeOutput, ProbedAsset } from './probe.types';
import { checkDecoded, checkSegments, durationTolerance, expectedRenditionSeconds, RenditionError } from './rendition-check';

const segments = (...durations: number[]) => durations.map((duration, i) => ({ uri: `segment_00${i}.ts`, duration, bytes: 100_000 }));
const problem = (fn: () => void): RenditionError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof RenditionError) return err;
    throw err;
  }
  throw new Error('no RenditionError');
};

describe('checkSegments', () => {
  it('passes segments that together last what the input declares, within the tolerance', () => {
    expect(() => checkSegments('source/index.m3u8', segments(4, 4, 1.5), 10)).not.toThrow();
    expect(() => checkSegments('source/index.m3u8', segments(4, 4, 4), 10)).not.toThrow(); // longer is no truncation
    expect(() => checkSegments('source/index.m3u8', segments(0.5), 0)).not.toThrow(); // duration unknown
  });

  it('says how much of the declared duration a rendition of a truncated input plays', () => {
    const err = problem(() => checkSegments('source/index.m3u8', segments(0.066667), 90));
    expect(err.shortfall).toEqual({ playableSeconds: 0.066667, expectedSeconds: 90 });
    expect(err.message).toBe('source/index.m3u8: lasts 0.067 s of the 90.000 s declared');
    expect(err.userMessage).toBe(
      'The input file is incomplete: it declares 90.0 seconds of media but only 0.1 seconds could be read (a truncated or damaged file).',
    );
  });

  it('refuses no segments, an empty segment, and segments too small to carry media (the BANDWIDTH=1 master)', () => {
    expect(problem(() => checkSegments('a', [], 0)).problem).toBe('lists no segments');
    expect(problem(() => checkSegments('a', [{ uri: 's0.ts', duration: 4, bytes: 0 }], 4)).problem).toBe('segment s0.ts is empty');
    const zero = problem(() => checkSegments('a', [{ uri: 's0.ts', duration: 0, bytes: 940 }], 0.5));
    expect([zero.problem, zero.shortfall]).toEqual(['carries 7520 bits in 0.000 s, too few for media', undefined]);
    expect(problem(() => checkSegments('a', [{ uri: 's0.ts', duration: 4, bytes: 188 }], 4)).problem).toMatch(/too few for media/);
  });

  it('allows a second, or 2 % of long inputs', () => {
    expect(durationTolerance(10)).toBe(1);
    expect(durationTolerance(3600)).toBe(72);
  });
});

describe('checkDecoded', () => {
  const probe = (frames: string | undefined, width = 640): FfprobeOutput => ({
    streams: [
      { index: 0, codec_type: 'video', width, height: width ? 360 : 0, ...(frames === undefined ? {} : { nb_read_frames: frames }) },
      { index: 1, codec_type: 'audio', nb_read_frames: '12' },
    ],
  });

  it('passes a first segment whose video decodes to frames of a size', () => {
    expect(() => checkDecoded('360p/index.m3u8', probe('7'), true)).not.toThrow();
  });

  it('refuses video that decodes to nothing (ffprobe says N/A or 0) or to no frame size', () => {
    expect(problem(() => checkDecoded('r', probe('N/A', 0), true)).problem).toBe('no video frame of its first segment decodes');
    expect(problem(() => checkDecoded('r', probe(undefined), true)).problem).toBe('no video frame of its first segment decodes');
    expect(problem(() => checkDecoded('r', probe('3', 0), true)).problem).toBe('its video has no frame size');
    expect(problem(() => checkDecoded('r', { streams: [] }, false)).problem).toBe('its first segment has no audio stream');
  });

  it('checks only the audio of an audio-only rendition', () => {
    expect(() => checkDecoded('audio/index.m3u8', { streams: [{ index: 0, codec_type: 'audio', nb_read_frames: '40' }] }, false)).not.toThrow();
  });
});

describe('expectedRenditionSeconds', () => {
  const asset = (tracks: ProbedAsset['tracks'], duration = 30): ProbedAsset => ({
    duration,
    tracks,
    resolution_tier: '720p',
    max_stored_resolution: 'HD',
    input_info: { container_format: 'mp4', tracks: [] },
    hasAudio: true,
    standard: true,
  });

  it("is the video's duration (audio running on past the picture does not count), else the audio's, else the container's", () => {
    const video = { type: 'video' as const, duration: 20, max_width: 640, max_height: 360, max_frame_rate: 30 };
    const audio = { type: 'audio' as const, duration: 30, max_channels: 2, primary: true };
    expect(expectedRenditionSeconds(asset([video, audio]), false)).toBe(20);
    expect(expectedRenditionSeconds(asset([audio]), false)).toBe(30);
    expect(expectedRenditionSeconds(asset([{ ...audio, duration: undefined }], 42), false)).toBe(42);
  });

  it('is at most 10 s for a test asset', () => {
    expect(expectedRenditionSeconds(asset([], 25), true)).toBe(10);
    expect(expectedRenditionSeconds(asset([], 4), true)).toBe(4);
  });
});
