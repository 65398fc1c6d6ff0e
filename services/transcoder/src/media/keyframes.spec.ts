import { summarizeKeyframes } from './keyframes';

const packet = (time: number, size: number, key = false) => ({ pts_time: time.toFixed(6), size: String(size), flags: key ? 'K__' : '___' });

describe('summarizeKeyframes', () => {
  it('measures the longest key-frame interval and its average bitrate', () => {
    const packets = [
      packet(0, 100_000, true),
      packet(1, 25_000),
      packet(2, 500_000, true), // 2..4: 1,000,000 bytes over 2 s = 4 Mb/s
      packet(3, 500_000),
      packet(4, 10_000, true), // 4..25 (last packet): 21 s
      packet(25, 10_000),
    ];
    expect(summarizeKeyframes(packets)).toEqual({ maxIntervalSeconds: 21, maxIntervalBitrate: 4_000_000 });
  });

  it('orders packets by timestamp (B-frames arrive in decode order)', () => {
    const packets = [packet(0, 1000, true), packet(0.2, 1000), packet(0.1, 1000), packet(0.3, 1000, true), packet(0.4, 1000)];
    expect(summarizeKeyframes(packets)?.maxIntervalSeconds).toBeCloseTo(0.3);
  });

  it('is undefined without key frames', () => {
    expect(summarizeKeyframes([packet(0, 10), packet(1, 10)])).toBeUndefined();
  });
});
