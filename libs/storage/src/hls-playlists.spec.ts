import { masterVariantUris, parseMediaPlaylist, playlistSeconds } from './hls-playlists';

describe('parseMediaPlaylist', () => {
  it('reads the segments of an ffmpeg VOD playlist', () => {
    const text = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.000000,\nsegment_000.ts\n#EXTINF:2.500000,\nsegment_001.ts\n#EXT-X-ENDLIST\n';
    expect(parseMediaPlaylist(text)).toEqual([
      { uri: 'segment_000.ts', duration: 4, discontinuity: false },
      { uri: 'segment_001.ts', duration: 2.5, discontinuity: false },
    ]);
  });

  it('marks the segment after each EXT-X-DISCONTINUITY (a live recording across a reconnect)', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-PLAYLIST-TYPE:EVENT',
      '#EXTINF:2.000000,',
      's0-00000.ts',
      '#EXT-X-DISCONTINUITY',
      '#EXTINF:1.966667,',
      's1-00000.ts',
      '#EXTINF:2.000000,',
      's1-00001.ts',
      '',
    ].join('\r\n');
    expect(parseMediaPlaylist(text)).toEqual([
      { uri: 's0-00000.ts', duration: 2, discontinuity: false },
      { uri: 's1-00000.ts', duration: 1.966667, discontinuity: true },
      { uri: 's1-00001.ts', duration: 2, discontinuity: false },
    ]);
    expect(playlistSeconds(parseMediaPlaylist(text))).toBeCloseTo(5.966667, 6);
  });

  it('lists nothing for an empty or a master playlist', () => {
    expect(parseMediaPlaylist('')).toEqual([]);
    expect(parseMediaPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nsource/index.m3u8\n')).toEqual([]);
  });
});

describe('masterVariantUris', () => {
  it('gives each variant URI in order, skipping media renditions and tags', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="subs/index.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=5400000,RESOLUTION=1920x1080',
      '1080p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=3300000,RESOLUTION=1280x720',
      '720p/index.m3u8',
      '',
    ].join('\n');
    expect(masterVariantUris(master)).toEqual(['1080p/index.m3u8', '720p/index.m3u8']);
  });
});
