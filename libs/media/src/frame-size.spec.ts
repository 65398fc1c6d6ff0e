import { aspectRatioOf, floorEven, gcd, storedResolutionName } from './frame-size';

describe('frame sizes', () => {
  it('gcd and the aspect ratio in lowest terms', () => {
    expect(gcd(1920, 1080)).toBe(120);
    expect(aspectRatioOf(1920, 1080)).toBe('16:9');
    expect(aspectRatioOf(1080, 1920)).toBe('9:16');
    expect(aspectRatioOf(854, 480)).toBe('427:240');
  });

  it('floorEven: the even number at or below, never under 2', () => {
    expect([floorEven(641), floorEven(640), floorEven(1), floorEven(0)]).toEqual([640, 640, 2, 2]);
  });

  it('max_stored_resolution by the short side (portrait-safe)', () => {
    expect(storedResolutionName(1280, 718)).toBe('SD');
    expect(storedResolutionName(720, 1280)).toBe('HD');
    expect(storedResolutionName(1920, 1080)).toBe('FHD');
    expect(storedResolutionName(3840, 2160)).toBe('UHD');
  });
});
