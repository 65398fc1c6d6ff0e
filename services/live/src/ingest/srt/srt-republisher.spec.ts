import { PassThrough } from 'node:stream';
import { programStreams, republishArgs, startRepublisher } from './srt-republisher';

const URL = 'rtmp://127.0.0.1:1935/srt/token';
const tail = ['-f', 'flv', URL];
const head = ['-v', 'error', '-analyzeduration', '1000000', '-f', 'mpegts', '-i', 'pipe:0'];

describe('the SRT republisher', () => {
  it('copies H.264 and AAC into FLV', () => {
    expect(republishArgs(URL, { video: 0x1b, audio: 0x0f })).toEqual([...head, '-map', '0:v:0', '-c:v', 'copy', '-map', '0:a:0', '-c:a', 'copy', ...tail]);
  });

  it('encodes HEVC into H.264 with the caller’s key frames, and MP3 into AAC', () => {
    expect(republishArgs(URL, { video: 0x24, audio: 0x03 })).toEqual([
      ...head,
      ...[
        '-map',
        '0:v:0',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-tune',
        'zerolatency',
        '-pix_fmt',
        'yuv420p',
        '-force_key_frames',
        'source',
        '-sc_threshold',
        '0',
      ],
      ...['-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k'],
      ...tail,
    ]);
  });

  it('maps only the streams there are', () => {
    expect(republishArgs(URL, { audio: 0x0f })).toEqual([...head, '-map', '0:a:0', '-c:a', 'copy', ...tail]);
    expect(programStreams([{ streamType: 0x06 }, { streamType: 0x24 }, { streamType: 0x0f }])).toEqual({ video: 0x24, audio: 0x0f });
    // Opus in MPEG-TS is private PES (0x06): the sound when there is no other
    expect(programStreams([{ streamType: 0x1b }, { streamType: 0x06 }])).toEqual({ video: 0x1b, audio: 0x06 });
    expect(republishArgs(URL, { video: 0x1b, audio: 0x0f, guessed: true })).toEqual([
      ...head,
      '-map',
      '0:v:0?',
      '-c:v',
      'copy',
      '-map',
      '0:a:0?',
      '-c:a',
      'copy',
      ...tail,
    ]);
    expect(programStreams([])).toEqual({});
  });

  it('reports a caller that sent nothing', async () => {
    const source = new PassThrough();
    const ended = new Promise<[number | null, string]>((resolve) => startRepublisher('ffmpeg', URL, source, (code, stderr) => resolve([code, stderr])));
    source.end();
    expect(await ended).toEqual([null, 'the caller sent no media']);
  });
});
