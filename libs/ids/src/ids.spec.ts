import { newId, unixSeconds } from './index';

describe('newId', () => {
  it('is base62 of the requested length and does not repeat', () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(new Set(ids).size).toBe(1000);
    expect(newId(12)).toHaveLength(12);
  });

  it('uses every character about equally often across pool refills', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const ch of newId()) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 64000 characters: about 1032 each; a skewed mapping (byte % 62 over all 256) would give ~1.33x to the first 8
    for (const n of counts.values()) expect(Math.abs(n - 64000 / 62)).toBeLessThan(200);
  });
});

describe('unixSeconds', () => {
  it('floors to whole seconds as a string', () => {
    expect(unixSeconds(new Date(1_700_000_000_999))).toBe('1700000000');
  });
});
