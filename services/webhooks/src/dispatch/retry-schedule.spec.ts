import { retryDelayMs, transitionAfter } from './retry-schedule';

const settings = { maxAttempts: 12, retryBaseMs: 1000, retryMaxMs: 60_000 };

describe('retryDelayMs', () => {
  it('doubles from retryBaseMs and stops at retryMaxMs (no jitter drawn)', () => {
    const delays = Array.from({ length: 9 }, (_, i) => retryDelayMs(i + 1, settings, () => 0));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('takes off at most 20 % as jitter, never going above the cap', () => {
    expect(retryDelayMs(1, settings, () => 0.5)).toBe(900);
    expect(retryDelayMs(3, settings, () => 0.999_999)).toBe(3200);
    expect(retryDelayMs(20, settings, () => 0.25)).toBe(57_000);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(4, settings);
      expect(delay).toBeGreaterThanOrEqual(6400);
      expect(delay).toBeLessThanOrEqual(8000);
    }
  });
});

describe('transitionAfter', () => {
  it.each([200, 201, 202, 204, 299])('delivers on %i', (status) => {
    expect(transitionAfter(1, status, settings)).toEqual({ status: 'delivered' });
    expect(transitionAfter(12, status, settings)).toEqual({ status: 'delivered' });
  });

  it.each([0, 100, 301, 302, 400, 404, 410, 429, 500, 503])('retries on %i with the backoff of that attempt', (status) => {
    expect(transitionAfter(1, status, settings, () => 0)).toEqual({ status: 'pending', retryInMs: 1000 });
    expect(transitionAfter(5, status, settings, () => 0)).toEqual({ status: 'pending', retryInMs: 16_000 });
  });

  it('fails for good when the last allowed attempt fails', () => {
    expect(transitionAfter(11, 500, settings, () => 0)).toEqual({ status: 'pending', retryInMs: 60_000 });
    expect(transitionAfter(12, 500, settings)).toEqual({ status: 'failed' });
    expect(transitionAfter(1, 0, { ...settings, maxAttempts: 1 })).toEqual({ status: 'failed' });
  });
});
