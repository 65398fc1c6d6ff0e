import { fitPcm, parseRecognizerLine, pcmArgs, PCM_BYTES_PER_SECOND } from './speech-recognizer';

describe('parseRecognizerLine', () => {
  it('reads recognize.py’s messages', () => {
    expect(parseRecognizerLine('{"utterance": {"start": 0.5, "end": 1.2, "words": [["hello", 0.5, 0.8], ["world", 0.8, 1.2]]}}')).toEqual({
      utterance: {
        start: 0.5,
        end: 1.2,
        words: [
          { text: 'hello', start: 0.5, end: 0.8 },
          { text: 'world', start: 0.8, end: 1.2 },
        ],
      },
    });
    expect(parseRecognizerLine('{"settled": 4.02}')).toEqual({ settled: 4.02 });
    expect(parseRecognizerLine('{"done": 9.0}')).toEqual({ done: 9 });
  });

  it('ignores anything else', () => {
    expect(parseRecognizerLine('INFO: loading model')).toBeUndefined();
    expect(parseRecognizerLine('{"other": 1}')).toBeUndefined();
    expect(parseRecognizerLine('null')).toBeUndefined();
  });
});

describe('fitPcm', () => {
  it('cuts or pads with silence to exactly the duration, so segment after segment keeps the playlist’s timeline', () => {
    const second = Buffer.alloc(PCM_BYTES_PER_SECOND, 1);
    expect(fitPcm(second, 1)).toBe(second);
    expect(fitPcm(second, 0.5)).toHaveLength(PCM_BYTES_PER_SECOND / 2);
    const padded = fitPcm(second, 2.0000001);
    expect(padded).toHaveLength(2 * PCM_BYTES_PER_SECOND);
    expect(padded.subarray(PCM_BYTES_PER_SECOND).every((b) => b === 0)).toBe(true);
  });
});

describe('pcmArgs', () => {
  it('decodes the first audio stream to 16 kHz mono s16le on stdout', () => {
    expect(pcmArgs('/tmp/s1_00000.ts')).toEqual([
      '-v',
      'error',
      '-i',
      '/tmp/s1_00000.ts',
      '-map',
      '0:a:0',
      '-vn',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'pcm_s16le',
      '-f',
      's16le',
      'pipe:1',
    ]);
  });
});
