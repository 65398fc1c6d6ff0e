import { ShortCache } from './short-cache';

describe('ShortCache', () => {
  it('shares one computation per key within the ttl, then computes again', async () => {
    const cache = new ShortCache<number>(1_000);
    let calls = 0;
    const compute = () => Promise.resolve(++calls);
    const burst = await Promise.all([cache.get('k', 0, compute), cache.get('k', 10, compute), cache.get('k', 999, compute)]);
    expect(burst).toEqual([1, 1, 1]);
    expect(await cache.get('other', 10, compute)).toBe(2);
    expect(await cache.get('k', 1_000, compute)).toBe(3);
  });

  it('does not keep a failure', async () => {
    const cache = new ShortCache<number>(1_000);
    await expect(cache.get('k', 0, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', 1, () => Promise.resolve(7))).toBe(7);
  });

  it('drops expired entries when full', async () => {
    const cache = new ShortCache<number>(1_000, 2);
    await cache.get('a', 0, () => Promise.resolve(1));
    await cache.get('b', 0, () => Promise.resolve(2));
    expect(await cache.get('c', 5_000, () => Promise.resolve(3))).toBe(3);
    expect(await cache.get('a', 5_001, () => Promise.resolve(4))).toBe(4);
  });
});
