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

describe('windowPlaylist in low latency (LL-HLS)', () => {
  const part = (name: string, duration: number, independent = false) => ({ name, duration, independent });
  const segments = Array.from({ length: 5 }, (_, i) => ({ name: `s1_0000${i}.ts`, duration: 1, discontinuity: false }));
  const partsOf = new Map(segments.map((s) => [s.name, [part(`${s.name}.p0`, 0.5, true), part(`${s.name}.p1`, 0.5)]]));

  it('offers blocking reload and delta updates, lists the parts of the last three target durations, the part under way, the hint and the reports', () => {
    const listing = {
      partTarget: 0.5,
      partsOf,
      open: [part('s1_part00010.ts', 0.467, true)],
      openDiscontinuity: false,
      preloadHint: 's1_part00011.ts',
      reports: ['window-360p'],
    };
    const text = windowPlaylist(segments, false, 'low', 'live', listing);
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:9',
        '#EXT-X-TARGETDURATION:1',
        '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=6.0,PART-HOLD-BACK=1.500',
        '#EXT-X-PART-INF:PART-TARGET=0.500',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-DISCONTINUITY-SEQUENCE:0',
        '#EXTINF:1.000000,',
        '../live/s1_00000.ts',
        '#EXTINF:1.000000,',
        '../live/s1_00001.ts',
        // 0.467 s under way, then three segments bring it to three target durations (3 s)
        '#EXT-X-PART:DURATION=0.500000,URI="../live/s1_00002.ts.p0",INDEPENDENT=YES',
        '#EXT-X-PART:DURATION=0.500000,URI="../live/s1_00002.ts.p1"',
        '#EXTINF:1.000000,',
        '../live/s1_00002.ts',
        '#EXT-X-PART:DURATION=0.500000,URI="../live/s1_00003.ts.p0",INDEPENDENT=YES',
        '#EXT-X-PART:DURATION=0.500000,URI="../live/s1_00003.ts.p1"',
        '#EXTINF:1.000000,',
        '../live/s1_00003.ts',
        '#EXT-X-PART:DURATION=0.500000,URI="../live/s1_00004.ts.p0",INDEPENDENT=YES',
        '#EXT-X-PART:DURATION=0.500000,URI="../live/s1_00004.ts.p1"',
        '#EXTINF:1.000000,',
        '../live/s1_00004.ts',
        '#EXT-X-PART:DURATION=0.467000,URI="../live/s1_part00010.ts",INDEPENDENT=YES',
        '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="../live/s1_part00011.ts"',
        '#EXT-X-RENDITION-REPORT:URI="../window-360p/index.m3u8",LAST-MSN=5,LAST-PART=0',
        '',
      ].join('\n'),
    );
  });

  it('reports the last segment’s last part when none is under way, and a discontinuity before a new span’s parts', () => {
    const between = { partTarget: 0.5, partsOf, open: [], openDiscontinuity: false, reports: ['window-360p'] };
    expect(windowPlaylist(segments, false, 'low', 'live', between)).toContain('LAST-MSN=4,LAST-PART=1\n');
    const reconnected = { ...between, open: [part('s2_part00000.ts', 0.45, true)], openDiscontinuity: true };
    expect(windowPlaylist(segments, false, 'low', 'live', reconnected)).toContain(
      '../live/s1_00004.ts\n#EXT-X-DISCONTINUITY\n#EXT-X-PART:DURATION=0.450000,URI="../live/s2_part00000.ts"',
    );
  });

  it('is a plain ended playlist once the recording is closed', () => {
    const ended = windowPlaylist(segments, true, 'low', 'live', { partTarget: 0.5, partsOf, open: [], openDiscontinuity: false, reports: [] });
    expect(ended).toBe(windowPlaylist(segments, true, 'low', 'live'));
    expect(ended).not.toMatch(/PART|SERVER-CONTROL|PRELOAD/);
  });
});
