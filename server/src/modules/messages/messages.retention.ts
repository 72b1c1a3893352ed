import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';

export const RAW_RETENTION_JOB = 'messages:raw-retention';
/** Rows cleared per statement: a year of messages is pruned in short transactions, never one long lock. */
const BATCH = 5_000;

/**
 * Forgets the provider's own object of messages older than `days` (messages.raw: what a phone's retry
 * request, a quote of the original, a delete for everyone or a media download again need), the largest part
 * of a year's rows. A media still to fetch (pending, or failed and perhaps asked again) keeps it. Returns how
 * many messages were pruned.
 */
export const pruneRawMessages = async (systemEm: () => EntityManager, options: { days: number; now?: Date }): Promise<number> => {
  if (options.days <= 0) return 0;
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.days * 24 * 60 * 60_000);
  let pruned = 0;
  for (;;) {
    const result = await systemEm()
      .getConnection()
      .execute<{ affectedRows: number }>(
        `update messages set raw = null where id in (
           select id from messages
           where raw is not null and created_at < ? and (media_status is null or media_status not in ('pending', 'failed'))
           limit ?)`,
        [cutoff, BATCH],
        'run',
      );
    pruned += result.affectedRows;
    if (result.affectedRows < BATCH) return pruned;
  }
};

/** Daily: raw message objects older than `days` (0: kept forever). */
export const registerMessageJobs = (registry: JobRegistry, systemEm: () => EntityManager, logger: Logger, days: number): void => {
  registry.define({
    name: RAW_RETENTION_JOB,
    every: '1 day',
    concurrency: 1,
    handler: async () => {
      const pruned = await pruneRawMessages(systemEm, { days });
      if (pruned > 0) logger.info({ pruned, days }, 'raw message objects pruned');
    },
  });
};
