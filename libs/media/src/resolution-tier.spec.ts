import { resolutionTierOfPixels } from './resolution-tier';

describe('resolutionTierOfPixels (spec 000 §2.11: tiers by pixel count)', () => {
  it.each([
    [640 * 360, '720p'],
    [1280 * 720, '720p'],
    [921_600, '720p'],
    [921_601, '1080p'],
    [1920 * 1080, '1080p'],
    [2_073_601, '1440p'],
    [2560 * 1440, '1440p'],
    [4_194_304, '1440p'],
    [4_194_305, '2160p'],
    [3840 * 2160, '2160p'],
    [7680 * 4320, '2160p'],
  ])('%i pixels → %s', (pixels, tier) => {
    expect(resolutionTierOfPixels(pixels)).toBe(tier);
  });

  it('is the same for a portrait frame as for its landscape twin', () => {
    expect(resolutionTierOfPixels(1080 * 1920)).toBe(resolutionTierOfPixels(1920 * 1080));
  });
});
