import { chooseLadder, ENCODING_PROFILES, EncodingProfile } from '@platform/media';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { interpretProbe } from './interpret-probe';
import { FfprobeOutput, MaxResolutionTier } from './probe.types';

const sizes = (video: { width: number; height: number }, profile?: EncodingProfile) =>
  chooseLadder({ ...video, frameRate: 30 }, true, profile).video.map((r) => `${r.name} ${r.width}x${r.height} ${r.videoBitrate}`);

describe('chooseLadder', () => {
  it('gives a 2160p source (2160p tier) every rung from 2160p down to 270p', () => {
    expect(sizes({ width: 3840, height: 2160 })).toEqual([
      '2160p 3840x2160 15000000',
      '1440p 2560x1440 9000000',
      '1080p 1920x1080 5000000',
      '720p 1280x720 3000000',
      '540p 960x540 2000000',
      '360p 640x360 800000',
      '270p 480x270 400000',
    ]);
  });

  it('gives a 1080p source five renditions with stereo AAC', () => {
    const ladder = chooseLadder({ width: 1920, height: 1080, frameRate: 30 }, true);
    expect(ladder.video.map((r) => r.name)).toEqual(['1080p', '720p', '540p', '360p', '270p']);
    expect(ladder.audio).toEqual({ bitrate: 128_000, channels: 2 });
  });

  it('never goes above a 720p source', () => {
    expect(sizes({ width: 1280, height: 720 })).toEqual(['720p 1280x720 3000000', '540p 960x540 2000000', '360p 640x360 800000', '270p 480x270 400000']);
  });

  it('keeps a portrait source portrait, rungs named by the short side', () => {
    expect(sizes({ width: 1080, height: 1920 })).toEqual([
      '1080p 1080x1920 5000000',
      '720p 720x1280 3000000',
      '540p 540x960 2000000',
      '360p 360x640 800000',
      '270p 270x480 400000',
    ]);
  });

  it('makes odd sizes even without growing them, and skips a rung too close to the top', () => {
    // 1001x563: 540p is within 15 % of 563 lines, so the next rung is 360p; bitrate scales by area.
    expect(sizes({ width: 1001, height: 563 })).toEqual(['562p 1000x562 1800000', '360p 640x360 800000', '270p 480x270 400000']);
  });

  it('gives a tiny source one rendition at the minimum bitrate', () => {
    expect(sizes({ width: 176, height: 144 })).toEqual(['144p 176x144 200000']);
  });

  it('gives an audio-only input an audio-only ladder, and a silent video no audio', () => {
    expect(chooseLadder(undefined, true)).toEqual({ video: [], audio: { bitrate: 128_000, channels: 2 } });
    expect(chooseLadder({ width: 640, height: 360, frameRate: 25 }, false).audio).toBeUndefined();
  });

  it('gives a 1440p source (1440p tier) 1440p on top and every rung below', () => {
    expect(sizes({ width: 2560, height: 1440 })).toEqual([
      '1440p 2560x1440 9000000',
      '1080p 1920x1080 5000000',
      '720p 1280x720 3000000',
      '540p 960x540 2000000',
      '360p 640x360 800000',
      '270p 480x270 400000',
    ]);
  });
});

describe('chooseLadder by video quality', () => {
  it('plus (the default) is the standard ladder', () => {
    expect(sizes({ width: 1920, height: 1080 }, ENCODING_PROFILES.plus)).toEqual(sizes({ width: 1920, height: 1080 }));
  });

  it('basic: 60 % of the bit rates, only the 1080p, 720p and 360p rungs below the top', () => {
    expect(sizes({ width: 1920, height: 1080 }, ENCODING_PROFILES.basic)).toEqual(['1080p 1920x1080 3000000', '720p 1280x720 1800000', '360p 640x360 480000']);
    expect(sizes({ width: 2560, height: 1440 }, ENCODING_PROFILES.basic)).toEqual([
      '1440p 2560x1440 5400000',
      '1080p 1920x1080 3000000',
      '720p 1280x720 1800000',
      '360p 640x360 480000',
    ]);
    expect(sizes({ width: 640, height: 360 }, ENCODING_PROFILES.basic)).toEqual(['360p 640x360 480000']);
  });

  it('premium: every rung at 1.5× the bit rates', () => {
    expect(sizes({ width: 1920, height: 1080 }, ENCODING_PROFILES.premium)).toEqual([
      '1080p 1920x1080 7500000',
      '720p 1280x720 4500000',
      '540p 960x540 3000000',
      '360p 640x360 1200000',
      '270p 480x270 600000',
    ]);
    expect(sizes({ width: 3840, height: 2160 }, ENCODING_PROFILES.premium)[0]).toBe('2160p 3840x2160 22500000');
  });

  it('does not change the audio rendition', () => {
    for (const profile of Object.values(ENCODING_PROFILES)) {
      expect(chooseLadder({ width: 1280, height: 720, frameRate: 30 }, true, profile).audio).toEqual({ bitrate: 128_000, channels: 2 });
    }
  });
});

describe('the ladder of a 3840x2160 source under each max_resolution_tier (probe → stored size → rungs)', () => {
  const uhd = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'video_only_4k_422.ffprobe.json'), 'utf8')) as FfprobeOutput;
  const ladderUnder = (cap: MaxResolutionTier) => {
    const result = interpretProbe(uhd, { maxResolutionTier: cap });
    if (!result.ok) throw new Error('unreadable fixture');
    return {
      tier: result.asset.resolution_tier,
      renditions: chooseLadder(result.asset.video, result.asset.hasAudio).video.map((r) => `${r.name} ${r.width}x${r.height}`),
    };
  };

  it('1080p (the default) caps at 1920x1080', () => {
    expect(ladderUnder('1080p')).toEqual({ tier: '1080p', renditions: ['1080p 1920x1080', '720p 1280x720', '540p 960x540', '360p 640x360', '270p 480x270'] });
  });

  it('1440p reaches 2560x1440', () => {
    expect(ladderUnder('1440p')).toEqual({
      tier: '1440p',
      renditions: ['1440p 2560x1440', '1080p 1920x1080', '720p 1280x720', '540p 960x540', '360p 640x360', '270p 480x270'],
    });
  });

  it('2160p reaches the source, 3840x2160', () => {
    expect(ladderUnder('2160p')).toEqual({
      tier: '2160p',
      renditions: ['2160p 3840x2160', '1440p 2560x1440', '1080p 1920x1080', '720p 1280x720', '540p 960x540', '360p 640x360', '270p 480x270'],
    });
  });
});
