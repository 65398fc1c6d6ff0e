import { TOKEN_CACHE_MS, TOKEN_REFRESH_AHEAD_MS, TokenCache, TokenRow } from './token-cache';

const row = (permissions: string[]): TokenRow => ({ secretHash: 'h', permissions });

/** A lookup whose answers the test hands out one at a time. */
function setup() {
  let now = 1_000_000;
  const pending: Array<{ id: string; answer: (row: TokenRow | undefined) => void; fail: (err: Error) => void }> = [];
  const lookup = jest.fn((id: string) => new Promise<TokenRow | undefined>((answer, fail) => pending.push({ id, answer, fail })));
  const cache = new TokenCache(lookup, () => now);
  const flush = () => new Promise((r) => setImmediate(r));
  return { cache, lookup, pending, flush, advance: (ms: number) => (now += ms) };
}

describe('TokenCache', () => {
  it('serves every request that arrives during a lookup from that one lookup', async () => {
    const { cache, lookup, pending } = setup();
    const waiting = [cache.get('t'), cache.get('t'), cache.get('t')];
    expect(lookup).toHaveBeenCalledTimes(1);
    pending[0].answer(row(['video:read']));
    expect(await Promise.all(waiting)).toEqual([row(['video:read']), row(['video:read']), row(['video:read'])].map((r) => expect.objectContaining(r)));
    await cache.get('t');
    expect(lookup).toHaveBeenCalledTimes(1); // cached
  });

  it('renews an entry in use before it expires, with one lookup in the background', async () => {
    const { cache, lookup, pending, flush, advance } = setup();
    const first = cache.get('t');
    pending[0].answer(row(['video:read']));
    await first;
    advance(TOKEN_CACHE_MS - TOKEN_REFRESH_AHEAD_MS - 1);
    await cache.get('t');
    expect(lookup).toHaveBeenCalledTimes(1); // not yet in the last part of its life
    advance(2);
    expect(await cache.get('t')).toMatchObject(row(['video:read'])); // answered at once from the entry
    await cache.get('t');
    expect(lookup).toHaveBeenCalledTimes(2); // one renewal for both
    pending[1].answer(row(['video:write']));
    await flush();
    advance(TOKEN_REFRESH_AHEAD_MS); // past the first entry's expiry
    expect(await cache.get('t')).toMatchObject(row(['video:write']));
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('never serves an expired entry: requests wait for the lookup, which may find the token gone', async () => {
    const { cache, pending, advance } = setup();
    const first = cache.get('t');
    pending[0].answer(row(['video:read']));
    await first;
    advance(TOKEN_CACHE_MS);
    const after = cache.get('t');
    pending[1].answer(undefined);
    expect(await after).toBeUndefined();
  });

  it('keeps nothing from a lookup under way when the token is forgotten (revoked meanwhile)', async () => {
    const { cache, lookup, pending } = setup();
    const before = cache.get('t');
    cache.forget('t');
    pending[0].answer(row(['video:read']));
    await before;
    const after = cache.get('t');
    expect(lookup).toHaveBeenCalledTimes(2);
    pending[1].answer(undefined);
    expect(await after).toBeUndefined();
  });

  it('reports a failed lookup to the requests waiting for it and tries again for the next', async () => {
    const { cache, lookup, pending } = setup();
    const waiting = [cache.get('t'), cache.get('t')];
    pending[0].fail(new Error('database unreachable'));
    await expect(Promise.all(waiting)).rejects.toThrow('database unreachable');
    const next = cache.get('t');
    expect(lookup).toHaveBeenCalledTimes(2);
    pending[1].answer(row(['video:read']));
    expect(await next).toMatchObject(row(['video:read']));
  });

  it('keeps serving an entry whose renewal failed until it expires', async () => {
    const { cache, pending, flush, advance } = setup();
    const first = cache.get('t');
    pending[0].answer(row(['video:read']));
    await first;
    advance(TOKEN_CACHE_MS - 1);
    await cache.get('t');
    pending[1].fail(new Error('database unreachable'));
    await flush();
    expect(await cache.get('t')).toMatchObject(row(['video:read']));
  });
});
