import type { Clock } from '../clock.ts';

/** A small in-memory cache whose entries live `ttlMs` on the given clock. Concurrent loads of one key share a promise. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<V> }>();
  private static readonly MAX_ENTRIES = 10_000;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    if (this.entries.size >= TtlCache.MAX_ENTRIES) this.entries.clear();
    const value = load();
    this.entries.set(key, { expiresAt: now + this.ttlMs, value });
    // A failed load is not cached.
    value.catch(() => this.entries.delete(key));
    return value;
  }
}
