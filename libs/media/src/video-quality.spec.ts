import { encodingProfileOf, videoQualityOf } from './video-quality';

describe('videoQualityOf', () => {
  it('takes video_quality first', () => {
    expect(videoQualityOf({ video_quality: 'basic', encoding_tier: 'smart' })).toBe('basic');
    expect(videoQualityOf({ video_quality: 'premium' })).toBe('premium');
  });

  it('maps the deprecated encoding_tier as Mux does: baseline = basic, smart = plus, premium = premium', () => {
    expect(videoQualityOf({ encoding_tier: 'baseline' })).toBe('basic');
    expect(videoQualityOf({ encoding_tier: 'smart' })).toBe('plus');
    expect(videoQualityOf({ encoding_tier: 'premium' })).toBe('premium');
  });

  it('defaults to plus (empty proto strings included)', () => {
    expect(videoQualityOf({})).toBe('plus');
    expect(videoQualityOf({ video_quality: '', encoding_tier: '' })).toBe('plus');
  });
});

describe('encodingProfileOf', () => {
  it('gives each quality its x264 preset and bit-rate factor', () => {
    expect(encodingProfileOf({ video_quality: 'basic' })).toEqual({ quality: 'basic', preset: 'superfast', bitrateFactor: 0.6, rungs: [1080, 720, 360] });
    expect(encodingProfileOf({ video_quality: 'plus' })).toEqual({ quality: 'plus', preset: 'veryfast', bitrateFactor: 1 });
    expect(encodingProfileOf({ encoding_tier: 'premium' })).toEqual({ quality: 'premium', preset: 'medium', bitrateFactor: 1.5 });
  });
});
