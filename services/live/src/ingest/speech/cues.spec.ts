import { cuesFromUtterance, cuesWithin, parseWebVtt, shiftCues, twoLines, vttMpegTs, vttTime, webVtt } from './cues';

const words = (...list: Array<[string, number, number]>) => list.map(([text, start, end]) => ({ text, start, end }));

describe('cuesFromUtterance', () => {
  it('makes one cue of a short utterance, timed from its first word to its last', () => {
    const u = { start: 0.5, end: 1.9, words: words(['the', 0.5, 0.7], ['weather', 0.7, 1.2], ['is', 1.2, 1.4], ['nice', 1.4, 1.9]) };
    expect(cuesFromUtterance(u)).toEqual([{ start: 0.5, end: 1.9, text: 'the weather is nice' }]);
  });

  it('breaks at a pause of a second or more', () => {
    const u = { start: 0, end: 4, words: words(['hello', 0, 0.5], ['world', 0.5, 1], ['good', 2, 2.5], ['morning', 2.5, 3]) };
    expect(cuesFromUtterance(u)).toEqual([
      { start: 0, end: 1, text: 'hello world' },
      { start: 2, end: 3, text: 'good morning' },
    ]);
  });

  it('keeps a cue within two 32-character lines and 5 seconds', () => {
    const many = Array.from({ length: 30 }, (_, i) => [`word${i}`, i * 0.3, i * 0.3 + 0.25] as [string, number, number]);
    const cues = cuesFromUtterance({ start: 0, end: 9, words: words(...many) });
    expect(cues.length).toBeGreaterThan(1);
    for (const c of cues) {
      expect(c.end - c.start).toBeLessThanOrEqual(5);
      expect(c.text.split('\n').every((line) => line.length <= 32)).toBe(true);
      expect(c.text.split('\n').length).toBeLessThanOrEqual(2);
    }
    expect(cues.map((c) => c.text.replace(/\n/g, ' ')).join(' ')).toBe(many.map(([w]) => w).join(' '));
  });

  it('makes no cue of an utterance without words', () => {
    expect(cuesFromUtterance({ start: 0, end: 1, words: [] })).toEqual([]);
  });
});

describe('twoLines', () => {
  it('breaks a long line where the longer of its two lines is shortest', () => {
    expect(twoLines(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'])).toBe('one two three four five\nsix seven eight nine');
    expect(twoLines(['short', 'line'])).toBe('short line');
  });
});

describe('webVtt', () => {
  it('writes cues with WebVTT times, and the HLS timestamp map when given', () => {
    const cues = [
      { start: 1.5, end: 3.25, text: 'hello world' },
      { start: 3725.001, end: 3726, text: 'later' },
    ];
    expect(webVtt(cues)).toBe('WEBVTT\n\n00:00:01.500 --> 00:00:03.250\nhello world\n\n01:02:05.001 --> 01:02:06.000\nlater\n');
    expect(webVtt([], 126000)).toBe('WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n');
    expect(vttTime(0)).toBe('00:00:00.000');
  });
});

describe('cuesWithin and shiftCues', () => {
  const cues = [
    { start: 0, end: 2, text: 'a' },
    { start: 3.5, end: 4.5, text: 'b' },
    { start: 6, end: 7, text: 'c' },
  ];

  it('takes the cues shown during a time range, a cue across its edge included', () => {
    expect(cuesWithin(cues, 2, 4).map((c) => c.text)).toEqual(['b']);
    expect(cuesWithin(cues, 4, 8).map((c) => c.text)).toEqual(['b', 'c']);
    expect(cuesWithin(cues, 2, 3.5)).toEqual([]);
  });

  it('moves cues along the timeline', () => {
    expect(shiftCues(cues.slice(0, 1), 10)).toEqual([{ start: 10, end: 12, text: 'a' }]);
  });
});

describe('parseWebVtt', () => {
  it('reads back the cues webVtt wrote, and the timestamp map', () => {
    const cues = [
      { start: 0.5, end: 2.25, text: 'hello there' },
      { start: 3661.001, end: 3662, text: 'two\nlines' },
    ];
    const text = webVtt(cues, 126000);
    expect(parseWebVtt(text)).toEqual(cues);
    expect(vttMpegTs(text)).toBe(126000);
    expect(parseWebVtt('WEBVTT\n')).toEqual([]);
  });
});
