import { loadConfig } from '@platform/config';
import { reply, TestGateway } from '../testing/test-gateway';
import { RateLimiter } from './token-bucket';

describe('rate limit: a token bucket per access token', () => {
  it('allows a burst, then refills at the per-second rate', () => {
    const limiter = new RateLimiter(loadConfig({ RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '3' }));
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => limiter.take('a', t0).allowed)).toEqual([true, true, true]);
    expect(limiter.take('a', t0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b', t0).allowed).toBe(true); // another token has its own bucket
    expect(limiter.take('a', t0 + 500).allowed).toBe(true); // 0.5 s at 2/s refills one
    expect(limiter.take('a', t0 + 500).allowed).toBe(false);
    expect(limiter.take('a', t0 + 60_000).allowed).toBe(true); // never more than the burst
    expect(limiter.take('a', t0 + 60_000).allowed).toBe(true);
    expect(limiter.take('a', t0 + 60_000).allowed).toBe(true);
    expect(limiter.take('a', t0 + 60_000).allowed).toBe(false);
  });

  it('answers 429 with Retry-After and the error body once the burst is spent', async () => {
    const gw = await TestGateway.start({ RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' });
    try {
      gw.signingKeys.listSigningKeys.mockReturnValue(reply({ items: [] }));
      const other = await gw.token(['system:read']);
      expect((await gw.request('GET', '/system/v1/signing-keys')).status).toBe(200);
      expect((await gw.request('GET', '/system/v1/signing-keys')).status).toBe(200);
      const limited = await gw.request('GET', '/system/v1/signing-keys');
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: { type: 'too_many_requests', messages: ['Rate limit exceeded; retry after 1 s'] } });
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(limited.headers.get('x-should-retry')).toBeNull();
      expect((await gw.request('GET', '/system/v1/signing-keys', { auth: other })).status).toBe(200);
      expect(gw.signingKeys.listSigningKeys).toHaveBeenCalledTimes(3);
    } finally {
      await gw.stop();
    }
  });
});
