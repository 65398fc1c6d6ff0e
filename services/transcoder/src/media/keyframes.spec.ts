import { KeyframeRows, PacketLineReader, summarizeKeyframes } from './keyframes';

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

describe('PacketLineReader', () => {
  it("reads ffprobe's JSON packet list line by line into the same summary as the parsed list", () => {
    const packets = [
      { pts_time: '0.000000', dts_time: '-0.066667', size: '2433', flags: 'K__' },
      { pts_time: '0.133333', dts_time: '0.000000', size: '100', flags: '___' },
      { pts_time: '0.066667', dts_time: '0.033333', size: '120', flags: '___' },
      { pts_time: '25.000000', dts_time: '24.966667', size: '3000', flags: 'K__' },
      { pts_time: '26.000000', dts_time: '25.966667', size: '50', flags: '___' },
    ];
    // ffprobe's JSON writer: one field per line, objects closed by `}` or `},`
    const text = JSON.stringify({ packets }, null, 4);
    const rows = new KeyframeRows();
    const reader = new PacketLineReader(rows);
    for (const line of text.split('\n')) reader.push(line);
    expect(rows.length).toBe(5);
    expect(rows.summarize()).toEqual(summarizeKeyframes(packets));
    // the second interval (3050 bytes over 1 s, to the last packet) outweighs the first (2653 bytes over 25 s)
    expect(rows.summarize()).toEqual({ maxIntervalSeconds: 25, maxIntervalBitrate: 24_400 });
  });

  it('keeps more packets than its first allocation', () => {
    const rows = new KeyframeRows();
    for (let i = 0; i < 5000; i++) rows.add(i / 25, 1000, i % 250 === 0);
    expect(rows.length).toBe(5000);
    // the last interval ends at the last packet (9.96 s after its key frame)
    expect(rows.summarize()).toEqual({ maxIntervalSeconds: 10, maxIntervalBitrate: Math.round((250 * 8000) / 9.96) });
  });
});
