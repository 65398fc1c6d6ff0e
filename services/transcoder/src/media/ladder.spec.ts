import { chooseLadder } from './ladder';

const sizes = (video: { width: number; height: number }) =>
  chooseLadder({ ...video, frameRate: 30 }, true).video.map((r) => `${r.name} ${r.width}x${r.height} ${r.videoBitrate}`);

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
});
