import { endedPlaylist, liveMasterPlaylist, parseMediaPlaylist } from './hls-packager';

describe('parseMediaPlaylist', () => {
  it('lists the segments with their total duration, and whether the playlist is ended', () => {
    const text = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:4.000000,\nsegment_00000.ts\n#EXTINF:3.966667,\nsegment_00001.ts\n';
    expect(parseMediaPlaylist(text)).toEqual({ segments: ['segment_00000.ts', 'segment_00001.ts'], duration: 7.967, ended: false });
    expect(parseMediaPlaylist(`${text}#EXT-X-ENDLIST\n`).ended).toBe(true);
    expect(parseMediaPlaylist('')).toEqual({ segments: [], duration: 0, ended: false });
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

describe('endedPlaylist', () => {
  it('turns the growing EVENT playlist into an ended VOD playlist, once', () => {
    const live = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:2.0,\nsegment_00000.ts\n';
    const ended = endedPlaylist(live);
    expect(ended).toBe('#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2.0,\nsegment_00000.ts\n#EXT-X-ENDLIST\n');
    expect(endedPlaylist(ended)).toBe(ended);
    expect(endedPlaylist('#EXTM3U\n#EXTINF:2.0,\ns.ts\n')).toBe('#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2.0,\ns.ts\n#EXT-X-ENDLIST\n');
  });
});
