import { deliveryTierOf } from './delivery-tier';

describe('deliveryTierOf (spec 000 §2.11: tiers by pixel count)', () => {
  it.each([
    [undefined, undefined, 'audio_only'],
    [0, 0, 'audio_only'],
    [640, 360, '720p'],
    [1280, 720, '720p'], // 921,600: the top of 720p
    [1281, 720, '1080p'],
    [1920, 1080, '1080p'], // 2,073,600
    [1921, 1080, '1440p'],
    [2560, 1440, '1440p'],
    [2048, 2048, '1440p'], // 4,194,304
    [2049, 2048, '2160p'],
    [3840, 2160, '2160p'],
    [1080, 1920, '1080p'], // portrait counts pixels too
  ])('%s×%s → %s', (width, height, tier) => {
    expect(deliveryTierOf(width, height)).toBe(tier);
  });
});
