import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';

/** Where a key stands in its window after a hit. */
export interface RateLimitState {
  limit: number;
  /** Hits left in this window (0 once refused). */
  remaining: number;
  resetAt: Date;
}

/**
 * Counts a hit on `key` in a fixed window and refuses with 429 past `limit` (its `retryAfter` in seconds
 * becomes the Retry-After header). One SQL statement, so concurrent hits from several instances count
 * correctly. Answers where the key stands, for the X-RateLimit-* headers.
 */
export const takeRateLimit = async (em: EntityManager, key: string, limit: number, windowSeconds: number): Promise<RateLimitState> => {
  const rows: { count: number; reset_at: Date }[] = await em.execute(
    `insert into rate_limits (key, count, reset_at) values (?, 1, now() + make_interval(secs => ?))
     on conflict (key) do update set
       count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
       reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
     returning count, reset_at`,
    [key, windowSeconds],
  );
  const row = rows[0];
  const resetAt = new Date(row.reset_at);
  if (row.count > limit) {
    const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
    throw new AppError('ERR_TOO_MANY_REQUESTS', { retryAfter });
  }
  return { limit, remaining: Math.max(0, limit - row.count), resetAt };
};

export const hitRateLimit = async (em: EntityManager, key: string, limit: number, windowSeconds: number): Promise<void> => {
  await takeRateLimit(em, key, limit, windowSeconds);
};

export const clearRateLimit = async (em: EntityManager, key: string): Promise<void> => {
  await em.execute('delete from rate_limits where key = ?', [key]);
};
