import { chooseStaticSource, masterSource } from './stored-renditions';
import { parseMasterPlaylist, StoredVariant } from '@platform/media';

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

describe('stored renditions', () => {
  const ladder = parseMasterPlaylist(LADDER);

  it('remuxes the ladder’s own encode of the size asked for, and the top rendition for highest and audio', () => {
    expect(chooseStaticSource({ video: true, shortSide: 360 }, ladder, true)).toEqual({ kind: 'remux', variant: '360p', width: 640, height: 360 });
    expect(chooseStaticSource({ video: true, shortSide: 720 }, ladder, false)).toEqual({ kind: 'remux', variant: '720p', width: 1280, height: 720 });
    expect(chooseStaticSource({ video: true, shortSide: 0 }, ladder, true)).toEqual({ kind: 'remux', variant: '720p', width: 1280, height: 720 });
    expect(chooseStaticSource({ video: false, shortSide: 0 }, ladder, true)).toMatchObject({ kind: 'remux', variant: '720p' });
  });

  it('encodes a size the ladder lacks from the kept source (else the top), with the top’s aspect and even sizes', () => {
    expect(chooseStaticSource({ video: true, shortSide: 480 }, ladder, true)).toEqual({ kind: 'encode', variant: 'source', width: 852, height: 480 });
    expect(chooseStaticSource({ video: true, shortSide: 480 }, ladder, false)).toEqual({ kind: 'encode', variant: '720p', width: 852, height: 480 });
    const portrait: StoredVariant[] = [{ name: '1080p', width: 1080, height: 1920, bandwidth: 5e6 }];
    expect(chooseStaticSource({ video: true, shortSide: 540 }, portrait, false)).toEqual({ kind: 'encode', variant: '1080p', width: 540, height: 960 });
    // a 640x400 source: its ladder has no 360p rung (within 15 % of the top), so low.mp4 is encoded
    expect(chooseStaticSource({ video: true, shortSide: 360 }, [{ name: '400p', width: 640, height: 400, bandwidth: 1e6 }], false)).toEqual({
      kind: 'encode',
      variant: '400p',
      width: 576,
      height: 360,
    });
    expect(chooseStaticSource({ video: true, shortSide: 360 }, [], false)).toBeUndefined();
  });

  it('makes the master of the kept source rendition, else of the top rendition', () => {
    expect(masterSource(ladder, true)).toBe('source');
    expect(masterSource(ladder, false)).toBe('720p');
    expect(masterSource([], false)).toBeUndefined();
  });
});
