import type { CacheStore } from '@whiskeysockets/baileys';

export interface TtlCacheOptions {
  /** Entries kept at most: beyond it, the least recently used goes. */
  max: number;
  /** How long an entry lives after it was set (read or not). */
  ttlMs: number;
  /** The clock (injected by tests). */
  now?: () => number;
}

/**
 * A map bounded in size and in time, without timers (nothing outlives the session that holds it): an entry
 * expires `ttlMs` after it was set; past `max` entries the least recently used one goes. Expired entries
 * are dropped when read, and a few of the least recently used are swept on each write, so a cache nobody
 * reads again does not keep its dead entries until the cap pushes them out.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();
  private readonly now: () => number;

  constructor(private readonly options: TtlCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V, ttlMs = this.options.ttlMs): void {
    const now = this.now();
    this.entries.delete(key);
    this.entries.set(key, { value, until: now + ttlMs });
    this.sweep(now);
    while (this.entries.size > this.options.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops expired entries at the least recently used end (a couple per write: amortised, never a full scan). */
  private sweep(now: number): void {
    let looked = 0;
    for (const [key, entry] of this.entries) {
      if (looked++ >= 2) return;
      if (entry.until <= now) this.entries.delete(key);
    }
  }
}

/** A TtlCache as Baileys' CacheStore (its signal-key cache and message-retry counters). */
export const cacheStore = (options: TtlCacheOptions): CacheStore & { readonly size: number } => {
  const cache = new TtlCache<string, unknown>(options);
  return {
    get: <T>(key: string) => cache.get(key) as T | undefined,
    set: <T>(key: string, value: T) => cache.set(key, value),
    del: (key: string) => cache.delete(key),
    flushAll: () => cache.clear(),
    get size() {
      return cache.size;
    },
  };
};
