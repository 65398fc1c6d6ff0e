import { parseWebVtt, vttMpegTs } from './cues';
import { segmentCues, subtitlePlaylist, vttSegment } from './segmented-vtt';

const timeline = (durations: number[], mpegTs: number) => durations.map((duration) => ({ duration, discontinuity: false, spanStart: 0, mpegTs }));

const cues = [
  { start: 0.5, end: 1.5, text: 'first' },
  { start: 3.5, end: 4.5, text: '<i>across</i>', settings: 'line:0' },
  { start: 9, end: 9.5, text: 'last' },
];

describe('segmentCues', () => {
  it('cuts the track at the video segments, each segment with the video’s timestamp map; a cue across an edge is in both', () => {
    const segments = segmentCues(cues, timeline([4, 4, 2.04], 133200));
    expect(segments.map((s) => [s.name, s.duration])).toEqual([
      ['segment_000.vtt', 4],
      ['segment_001.vtt', 4],
      ['segment_002.vtt', 2.04],
    ]);
    expect(segments[0].text).toBe(
      'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:133200,LOCAL:00:00:00.000\n\n00:00:00.500 --> 00:00:01.500\nfirst\n\n00:00:03.500 --> 00:00:04.500 line:0\n<i>across</i>\n',
    );
    expect(parseWebVtt(segments[1].text).map((c) => c.text)).toEqual(['<i>across</i>']);
    expect(parseWebVtt(segments[2].text).map((c) => c.text)).toEqual(['last']);
    expect(segments.every((s) => vttMpegTs(s.text) === 133200)).toBe(true);
  });

  it('gives cues past the video’s end to the last segment, and an empty segment where nothing is said', () => {
    const segments = segmentCues([{ start: 12, end: 13, text: 'after' }], timeline([4, 4], 126000));
    expect(segments[0].text).toBe('WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n');
    expect(parseWebVtt(segments[1].text).map((c) => c.text)).toEqual(['after']);
  });
});

describe('segmentCues across discontinuities', () => {
  it('maps each span’s segments to its own presentation times, cue times staying the asset’s', () => {
    const spans = [
      { duration: 4, discontinuity: false, spanStart: 0, mpegTs: 126000 },
      { duration: 4, discontinuity: true, spanStart: 4, mpegTs: 900000 },
    ];
    const [first, second] = segmentCues(cues, spans);
    expect(first.text.split('\n')[1]).toBe('X-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000');
    expect(second.text.split('\n')[1]).toBe('X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:04.000');
    expect(parseWebVtt(second.text)).toEqual([
      { start: 3.5, end: 4.5, text: '<i>across</i>' },
      { start: 9, end: 9.5, text: 'last' },
    ]);
    expect(subtitlePlaylist([first, second])).toContain('#EXTINF:4.000000,\nsegment_000.vtt\n#EXT-X-DISCONTINUITY\n#EXTINF:4.000000,\nsegment_001.vtt');
  });
});

describe('vttSegment', () => {
  it('is one segment of [start, end)', () => {
    expect(parseWebVtt(vttSegment(cues, 4, 8, 0)).map((c) => c.text)).toEqual(['<i>across</i>']);
  });
});

describe('subtitlePlaylist', () => {
  it('lists the segments as a VOD media playlist', () => {
    expect(
      subtitlePlaylist([
        { name: 'segment_000.vtt', duration: 4, discontinuity: false },
        { name: 'segment_001.vtt', duration: 2.04, discontinuity: false },
      ]),
    ).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.000000,\nsegment_000.vtt\n#EXTINF:2.040000,\nsegment_001.vtt\n#EXT-X-ENDLIST\n',
    );
  });
});
