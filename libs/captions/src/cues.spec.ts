import { cuesWithin, parseWebVtt, shiftCues, vttMpegTs, vttTime, webVtt } from './cues';

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
