/** How long a successful lookup is trusted: a revoked token stops working within this time. */
export const TOKEN_CACHE_MS = 30_000;
/** In this last part of an entry's life, a request starts one lookup in the background to renew it. */
export const TOKEN_REFRESH_AHEAD_MS = 5_000;

export interface TokenRow {
  secretHash: string;
  permissions: string[];
}

interface Cached extends TokenRow {
  expiresAt: number;
}

/**
 * Access-token rows by id, each looked up at most once at a time. When an entry expired, every
 * request arriving before the new lookup answered did its own (at 500 requests/s, a few dozen
 * queries queued on the database's one thread, and more the longer they queued): now they share
 * one, and a token in use is renewed before it expires, so its requests never wait for it.
 * A failed renewal is not reported: the entry still expires on time, and the lookup then awaited
 * reports the failure to its requests.
 */
export class TokenCache {
  private readonly entries = new Map<string, Cached>();
  private readonly lookups = new Map<string, Promise<TokenRow | undefined>>();

  constructor(
    private readonly lookup: (id: string) => Promise<TokenRow | undefined>,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The active token's row, from the cache while it is fresh; undefined if there is none. */
  async get(id: string): Promise<TokenRow | undefined> {
    const cached = this.entries.get(id);
    const now = this.now();
    if (cached && cached.expiresAt > now) {
      if (cached.expiresAt - now <= TOKEN_REFRESH_AHEAD_MS) this.load(id).catch(() => undefined);
      return cached;
    }
    this.entries.delete(id);
    return this.load(id);
  }

  /** Drops the entry, and the result of a lookup under way: it may have read the row before the change. */
  forget(id: string): void {
    this.entries.delete(id);
    this.lookups.delete(id);
  }

  private load(id: string): Promise<TokenRow | undefined> {
    const running = this.lookups.get(id);
    if (running) return running;
    const lookup: Promise<TokenRow | undefined> = this.lookup(id).then(
      (row) => {
        if (this.lookups.get(id) === lookup) {
          this.lookups.delete(id);
          if (row) this.entries.set(id, { ...row, expiresAt: this.now() + TOKEN_CACHE_MS });
          else this.entries.delete(id);
        }
        return row;
      },
      (err: unknown) => {
        if (this.lookups.get(id) === lookup) this.lookups.delete(id);
        throw err;
      },
    );
    this.lookups.set(id, lookup);
    return lookup;
  }
}
