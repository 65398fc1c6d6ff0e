import { parseMasterPlaylist, topVariant } from './stored-variants';

const LADDER = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="subs/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=3300000,AVERAGE-BANDWIDTH=3000000,CODECS="avc1.640020,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.000,SUBTITLES="subs"
720p/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=2200000,RESOLUTION=960x540
540p/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=880000,RESOLUTION=640x360
360p/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=440000,RESOLUTION=480x270
270p/index.m3u8
`;

describe('stored variants', () => {
  const ladder = parseMasterPlaylist(LADDER);

  it('reads the renditions of a master playlist (not its alternate groups), in order', () => {
    expect(ladder).toEqual([
      { name: '720p', width: 1280, height: 720, bandwidth: 3_300_000 },
      { name: '540p', width: 960, height: 540, bandwidth: 2_200_000 },
      { name: '360p', width: 640, height: 360, bandwidth: 880_000 },
      { name: '270p', width: 480, height: 270, bandwidth: 440_000 },
    ]);
    expect(parseMasterPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=130000,CODECS="mp4a.40.2"\naudio/index.m3u8\n')).toEqual([
      { name: 'audio', bandwidth: 130_000 },
    ]);
    expect(parseMasterPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nhttp://elsewhere/x.m3u8\n')).toEqual([]);
  });

  it('takes the rendition with the most pixels as the top one, ties to the higher bandwidth', () => {
    expect(topVariant(ladder)?.name).toBe('720p');
    expect(
      topVariant([
        { name: 'a', width: 640, height: 360, bandwidth: 1 },
        { name: 'b', width: 640, height: 360, bandwidth: 2 },
      ])?.name,
    ).toBe('b');
    expect(topVariant([])).toBeUndefined();
  });
});
