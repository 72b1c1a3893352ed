import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('forgets an entry ttlMs after it was set, read or not', () => {
    let now = 0;
    const cache = new TtlCache<string, number>({ max: 10, ttlMs: 100, now: () => now });
    cache.set('a', 1);
    now = 99;
    expect(cache.get('a')).toBe(1);
    now = 100;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the least recently used entry beyond its cap', () => {
    const cache = new TtlCache<string, number>({ max: 2, ttlMs: 1_000, now: () => 0 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('sweeps expired entries nobody reads as new ones are written', () => {
    let now = 0;
    const cache = new TtlCache<number, number>({ max: 1_000, ttlMs: 10, now: () => now });
    for (let i = 0; i < 100; i += 1) cache.set(i, i);
    now = 10;
    for (let i = 100; i < 200; i += 1) cache.set(i, i);
    expect(cache.size).toBe(100);
  });
});
