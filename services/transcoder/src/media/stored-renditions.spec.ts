import { chooseStaticSource, masterSource } from './stored-renditions';
import { StoredVariant } from '@platform/media';

/** The renditions of a 720p ladder, as parseMasterPlaylist reads them (its own spec is in libs/media). */
const LADDER: StoredVariant[] = [
  { name: '720p', width: 1280, height: 720, bandwidth: 3_300_000 },
  { name: '540p', width: 960, height: 540, bandwidth: 2_200_000 },
  { name: '360p', width: 640, height: 360, bandwidth: 880_000 },
  { name: '270p', width: 480, height: 270, bandwidth: 440_000 },
];

describe('stored renditions', () => {
  const ladder = LADDER;

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
