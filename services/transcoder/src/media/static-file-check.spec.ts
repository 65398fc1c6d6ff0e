import { checkStaticFile, StaticFileError } from './static-file-check';
import { FfprobeOutput } from './probe.types';

const FASTSTART = ['ftyp', 'moov', 'free', 'mdat'].map((type, i) => ({ type, offset: i, size: 1 }));
const probe = (fields: { video?: [number, number]; audio?: boolean; duration?: string; bitRate?: string } = {}): FfprobeOutput => ({
  streams: [
    ...(fields.video ? [{ index: 0, codec_type: 'video', codec_name: 'h264', width: fields.video[0], height: fields.video[1] }] : []),
    ...(fields.audio ? [{ index: 1, codec_type: 'audio', codec_name: 'aac' }] : []),
  ],
  format: { duration: fields.duration ?? '10.000', ...(fields.bitRate ? { bit_rate: fields.bitRate } : {}) },
});
const expected = { video: { width: 1280, height: 720 }, audio: true, seconds: 10 };

describe('checkStaticFile', () => {
  it('accepts a faststart file of the streams, size and duration asked for, and reads its facts', () => {
    expect(checkStaticFile('high.mp4', probe({ video: [1280, 720], audio: true, bitRate: '2500000' }), FASTSTART, 3_000_000, expected)).toEqual({
      width: 1280,
      height: 720,
      bitrate: 2_500_000,
      seconds: 10,
    });
    // no bit rate from ffprobe: size over duration
    expect(checkStaticFile('audio.m4a', probe({ audio: true }), FASTSTART, 160_000, { audio: true, seconds: 10 })).toEqual({
      width: 0,
      height: 0,
      bitrate: 128_000,
      seconds: 10,
    });
  });

  it.each<[string, FfprobeOutput, typeof FASTSTART, typeof expected | { audio: boolean; seconds: number }, string]>([
    ['no video', probe({ audio: true }), FASTSTART, expected, 'high.mp4: has no H.264 video (found none)'],
    ['another size', probe({ video: [640, 360], audio: true }), FASTSTART, expected, 'high.mp4: is 640x360, not 1280x720'],
    ['video in an M4A', probe({ video: [1280, 720], audio: true }), FASTSTART, { audio: true, seconds: 10 }, 'high.mp4: has a video stream, but is audio only'],
    ['no audio', probe({ video: [1280, 720] }), FASTSTART, expected, 'high.mp4: has no AAC audio (found none)'],
    ['too short', probe({ video: [1280, 720], audio: true, duration: '8.5' }), FASTSTART, expected, 'high.mp4: lasts 8.500 s, its source 10.000 s'],
    ['no duration', probe({ video: [1280, 720], audio: true, duration: 'N/A' }), FASTSTART, expected, 'high.mp4: has no duration'],
    [
      'moov at the end',
      probe({ video: [1280, 720], audio: true }),
      ['ftyp', 'mdat', 'moov'].map((type, i) => ({ type, offset: i, size: 1 })),
      expected,
      'high.mp4: is not faststart (top-level boxes: ftyp, mdat, moov)',
    ],
  ])('refuses a file with %s', (_what, probed, boxes, expectation, message) => {
    expect(() => checkStaticFile('high.mp4', probed, boxes, 1_000_000, expectation)).toThrow(
      new StaticFileError('high.mp4', message.replace('high.mp4: ', '')),
    );
  });

  it('refuses a file carrying too few bits for media', () => {
    expect(() => checkStaticFile('high.mp4', probe({ video: [1280, 720], audio: true }), FASTSTART, 100, expected)).toThrow(
      'carries 80 bit/s, too few for media',
    );
  });
});
