/**
 * Values kept for `ttlMs` per key; callers asking while a value is being computed share that
 * computation, so a burst of polls is one query. A failed computation is not kept.
 */
export class ShortCache<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, now: number, compute: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && now - entry.at < this.ttlMs) return entry.value;
    if (this.entries.size >= this.maxEntries) this.prune(now);
    const value = compute();
    this.entries.set(key, { at: now, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) if (now - entry.at >= this.ttlMs) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
  }
}
