import { rewriteMasterPlaylist, rewriteMediaPlaylist } from './playlist-rewrite';

const GRANT = 'eyJwIjoicGlkIn0.c2ln';

describe('rewriteMasterPlaylist', () => {
  it('puts every variant under the playback id with the grant, leaving tags as they are', () => {
    const stored = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2"',
      '1080p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"',
      '720p/index.m3u8',
      '',
    ].join('\n');

    expect(rewriteMasterPlaylist(stored, 'pid123', GRANT)).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2"',
        `pid123/1080p/index.m3u8?grant=${GRANT}`,
        '#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"',
        `pid123/720p/index.m3u8?grant=${GRANT}`,
        '',
      ].join('\n'),
    );
  });

  it('rewrites URI attributes of EXT-X-MEDIA and EXT-X-I-FRAME-STREAM-INF, and reads CRLF playlists', () => {
    const stored = [
      '#EXTM3U',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",DEFAULT=YES,URI="audio/index.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="aud"',
      'source/index.m3u8',
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="source/iframes.m3u8"',
    ].join('\r\n');

    expect(rewriteMasterPlaylist(stored, 'p', 'g.s')).toBe(
      [
        '#EXTM3U',
        '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",DEFAULT=YES,URI="p/audio/index.m3u8?grant=g.s"',
        '#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="aud"',
        'p/source/index.m3u8?grant=g.s',
        '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="p/source/iframes.m3u8?grant=g.s"',
      ].join('\n'),
    );
  });

  it('leaves absolute URIs and comments alone, and joins an existing query with &', () => {
    const stored = ['#EXTM3U', '# URI="x/y.m3u8" in a comment', 'https://cdn.example/other.m3u8', '/root/index.m3u8', 'v/index.m3u8?lang=en'].join('\n');
    expect(rewriteMasterPlaylist(stored, 'p', 'g.s')).toBe(
      ['#EXTM3U', '# URI="x/y.m3u8" in a comment', 'https://cdn.example/other.m3u8', '/root/index.m3u8', 'p/v/index.m3u8?lang=en&grant=g.s'].join('\n'),
    );
  });
});

describe('rewriteMediaPlaylist', () => {
  it('keeps segment paths relative and appends the grant to each', () => {
    const stored = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:4',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXTINF:4.000000,',
      'segment_000.ts',
      '#EXTINF:2.500000,',
      'segment_001.ts',
      '#EXT-X-ENDLIST',
      '',
    ].join('\n');

    expect(rewriteMediaPlaylist(stored, GRANT)).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:4',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-PLAYLIST-TYPE:VOD',
        '#EXTINF:4.000000,',
        `segment_000.ts?grant=${GRANT}`,
        '#EXTINF:2.500000,',
        `segment_001.ts?grant=${GRANT}`,
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
  });

  it('grants the init section of fMP4 renditions (EXT-X-MAP) too', () => {
    const stored = ['#EXTM3U', '#EXT-X-MAP:URI="init.mp4"', '#EXTINF:4,', 'seg_0.m4s'].join('\n');
    expect(rewriteMediaPlaylist(stored, 'g.s')).toBe(['#EXTM3U', '#EXT-X-MAP:URI="init.mp4?grant=g.s"', '#EXTINF:4,', 'seg_0.m4s?grant=g.s'].join('\n'));
  });
});
