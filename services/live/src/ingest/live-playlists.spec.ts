import { liveMasterPlaylist, parseRecordingPlaylist, recordingPlaylist, windowPlaylist } from './live-playlists';

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

describe('parseRecordingPlaylist', () => {
  it('reads back the segments, durations and discontinuities recordingPlaylist wrote (a restarted service resumes from it)', () => {
    const segments = [
      { name: 's1_00000.ts', duration: 2.002, discontinuity: false },
      { name: 's1_00001.ts', duration: 1.5, discontinuity: false },
      { name: 'slate2_00000.ts', duration: 2, discontinuity: true },
      { name: 's3_00000.ts', duration: 2, discontinuity: true },
    ];
    expect(parseRecordingPlaylist(recordingPlaylist(segments, false, 'reduced'))).toEqual(segments);
    expect(parseRecordingPlaylist(recordingPlaylist(segments, true, 'reduced'))).toEqual(segments);
    expect(parseRecordingPlaylist('')).toEqual([]);
  });
});

describe('liveMasterPlaylist', () => {
  it('lists the live renditions in order with their bandwidth and resolution', () => {
    expect(liveMasterPlaylist([{ uri: 'live/index.m3u8', bandwidth: 2_500_000, width: 1280, height: 720 }])).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720\nlive/index.m3u8\n',
    );
    expect(liveMasterPlaylist([{ uri: 'live/index.m3u8', bandwidth: 64_000 }])).toContain('#EXT-X-STREAM-INF:BANDWIDTH=64000\nlive/');
    expect(
      liveMasterPlaylist([
        { uri: 'window/index.m3u8', bandwidth: 3_100_000, width: 1280, height: 720 },
        { uri: 'window-360p/index.m3u8', bandwidth: 900_000, width: 640, height: 360 },
      ]),
    ).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=3100000,RESOLUTION=1280x720\nwindow/index.m3u8\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360\nwindow-360p/index.m3u8\n',
    );
  });

  it('adds generated subtitles as a SUBTITLES rendition the variant names', () => {
    const subtitles = { name: 'English (generated)', languageCode: 'en', uri: 'subs-window/index.m3u8' };
    expect(liveMasterPlaylist([{ uri: 'window/index.m3u8', bandwidth: 1_000_000, width: 640, height: 360 }], { subtitles })).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
        '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (generated)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="subs-window/index.m3u8"\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=1000000,RESOLUTION=640x360,SUBTITLES="subs"\nwindow/index.m3u8\n',
    );
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

  it('lists another variant’s segments: the generated subtitles of the same window', () => {
    const vtt = (i: number) => ({ ...seg(i), name: `s1_0000${i}.vtt` });
    expect(windowPlaylist([vtt(0), vtt(1)], false, 'reduced', 'subs')).toContain(
      '#EXTINF:2.000000,\n../subs/s1_00000.vtt\n#EXTINF:2.000000,\n../subs/s1_00001.vtt\n',
    );
  });
});
