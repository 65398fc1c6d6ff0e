import { MediaProgress, ProgressParser } from './progress';

const block = (fields: Record<string, string>, end = false) =>
  `${Object.entries(fields)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\nprogress=${end ? 'end' : 'continue'}\n`;

describe('ProgressParser', () => {
  it('reports out_time_us as seconds with the fraction of the expected duration and the speed', () => {
    const seen: MediaProgress[] = [];
    const parser = new ProgressParser((p) => seen.push(p), 10);
    parser.push(block({ frame: '45', out_time_us: '1500000', out_time_ms: '1500000', out_time: '00:00:01.500000', speed: '2.97x' }));
    parser.push(block({ out_time_us: '10000000', speed: '3.1x' }, true));
    expect(seen).toEqual([
      { outTimeSeconds: 1.5, fraction: 0.15, speed: 2.97, done: false },
      { outTimeSeconds: 10, fraction: 1, speed: 3.1, done: true },
    ]);
  });

  it('joins lines split across chunks', () => {
    const seen: MediaProgress[] = [];
    const parser = new ProgressParser((p) => seen.push(p));
    const text = block({ out_time_us: '2250000', speed: 'N/A' });
    for (const ch of text) parser.push(ch);
    expect(seen).toEqual([{ outTimeSeconds: 2.25, done: false }]);
  });

  it('reads out_time (HH:MM:SS) when out_time_us is absent, as in ffmpeg 4.1, and counts negative times as 0', () => {
    const seen: number[] = [];
    const parser = new ProgressParser((p) => seen.push(p.outTimeSeconds));
    parser.push(block({ out_time_ms: '3723500000', out_time: '01:02:03.500000' }));
    parser.push(block({ out_time: '-577014:32:22.775808' }));
    parser.push(block({ out_time_ms: '4000000' }));
    parser.push(block({ out_time_us: 'N/A', out_time: 'N/A' }));
    expect(seen).toEqual([3723.5, 0, 4, 0]);
  });

  it('caps the fraction at 1 and leaves it out without a duration', () => {
    const fractions: Array<number | undefined> = [];
    new ProgressParser((p) => fractions.push(p.fraction), 2).push(block({ out_time_us: '3000000' }));
    new ProgressParser((p) => fractions.push(p.fraction)).push(block({ out_time_us: '3000000' }));
    expect(fractions).toEqual([1, undefined]);
  });
});
