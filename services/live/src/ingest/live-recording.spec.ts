import { liveMasterPlaylist, recordingPlaylist, recordingTimes, windowPlaylist } from './live-recording';

describe('recordingPlaylist', () => {
  const segments = [
    { name: 's1_00000.ts', duration: 2, discontinuity: false },
    { name: 's1_00001.ts', duration: 1.5, discontinuity: false },
    { name: 's2_00000.ts', duration: 2.002, discontinuity: true },
  ];

  it('is an EVENT playlist while live, with a discontinuity where a reconnected session begins', () => {
    expect(recordingPlaylist(segments, false, 'reduced')).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:3\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
        '#EXTINF:2.000000,\ns1_00000.ts\n#EXTINF:1.500000,\ns1_00001.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:2.002000,\ns2_00000.ts\n',
    );
  });

  it('is a VOD playlist with EXT-X-ENDLIST once closed, its target duration at least the latency mode’s segment', () => {
    const ended = recordingPlaylist(segments.slice(0, 1), true, 'standard');
    expect(ended).toContain('#EXT-X-TARGETDURATION:4\n');
    expect(ended).toContain('#EXT-X-PLAYLIST-TYPE:VOD\n');
    expect(ended.endsWith('s1_00000.ts\n#EXT-X-ENDLIST\n')).toBe(true);
  });
});

describe('liveMasterPlaylist', () => {
  it('lists the one live variant with its bandwidth and resolution', () => {
    expect(liveMasterPlaylist({ video: { width: 1280, height: 720 } }, 2_500_000)).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720\nlive/index.m3u8\n',
    );
    expect(liveMasterPlaylist({}, 64_000)).toContain('#EXT-X-STREAM-INF:BANDWIDTH=64000\nlive/');
  });
});

describe('recordingTimes', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 20, 0, s));
  it('lists each span with the length of its kept segments, content and slate, in order', () => {
    const spans = [
      { type: 'content' as const, startedAt: at(0) },
      { type: 'slate' as const, startedAt: at(10) },
      { type: 'content' as const, startedAt: at(14) },
    ];
    const segments = [
      { span: 0, duration: 4 },
      { span: 0, duration: 5.5 },
      { span: 1, duration: 2 },
      { span: 1, duration: 2.0004 },
      { span: 2, duration: 3 },
    ];
    expect(recordingTimes(spans, segments)).toEqual([
      { started_at: '2026-11-24T20:00:00.000Z', duration: 9.5, type: 'content' },
      { started_at: '2026-11-24T20:00:10.000Z', duration: 4, type: 'slate' },
      { started_at: '2026-11-24T20:00:14.000Z', duration: 3, type: 'content' },
    ]);
  });

  it('leaves out spans with no segment kept (a dropped trailing slate, a session too short for one)', () => {
    const spans = [
      { type: 'content' as const, startedAt: at(0) },
      { type: 'slate' as const, startedAt: at(10) },
    ];
    expect(recordingTimes(spans, [{ span: 0, duration: 4 }])).toEqual([{ started_at: '2026-11-24T20:00:00.000Z', duration: 4, type: 'content' }]);
  });
});

describe('windowPlaylist', () => {
  const seg = (i: number, duration = 2, discontinuity = false) => ({ name: `s1_${String(i).padStart(5, '0')}.ts`, duration, discontinuity });

  it('lists every segment while the recording is shorter than the window, from the recording’s segments', () => {
    expect(windowPlaylist([seg(0), seg(1)], false, 'reduced')).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
        '#EXTINF:2.000000,\n../live/s1_00000.ts\n#EXTINF:2.000000,\n../live/s1_00001.ts\n',
    );
  });

  it('slides: the last 30 s, numbered by their place in the recording, counting the discontinuities that slid out', () => {
    const segments = Array.from({ length: 40 }, (_, i) => seg(i, 2, i === 5 || i === 30));
    const text = windowPlaylist(segments, false, 'reduced');
    expect(text).toContain('#EXT-X-MEDIA-SEQUENCE:25\n');
    expect(text).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1\n');
    expect(text.match(/#EXTINF/g)).toHaveLength(15);
    expect(text).toContain('#EXT-X-DISCONTINUITY\n#EXTINF:2.000000,\n../live/s1_00030.ts');
    expect(text).not.toContain('s1_00024.ts');
    expect(text).not.toContain('#EXT-X-ENDLIST');
  });

  it('keeps at least three segments however long they are, and ends with the recording', () => {
    const text = windowPlaylist([seg(0, 20), seg(1, 20), seg(2, 20), seg(3, 20)], true, 'standard');
    expect(text).toContain('#EXT-X-MEDIA-SEQUENCE:1\n');
    expect(text).toContain('#EXT-X-TARGETDURATION:20\n');
    expect(text.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
  });
});
