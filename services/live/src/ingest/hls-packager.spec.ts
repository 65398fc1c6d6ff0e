import { parseMediaPlaylist } from './hls-packager';

describe('parseMediaPlaylist', () => {
  it('lists the segments with their durations, the total, and whether the playlist is ended', () => {
    const text =
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:4.000000,\ns1_00000.ts\n#EXTINF:3.966667,\ns1_00001.ts\n';
    expect(parseMediaPlaylist(text)).toEqual({ segments: ['s1_00000.ts', 's1_00001.ts'], durations: [4, 3.966667], duration: 7.967, ended: false });
    expect(parseMediaPlaylist(`${text}#EXT-X-ENDLIST\n`).ended).toBe(true);
    expect(parseMediaPlaylist('')).toEqual({ segments: [], durations: [], duration: 0, ended: false });
  });
});
