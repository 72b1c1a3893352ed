import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { MediaStore } from '../../media/storage.js';

export const RAW_RETENTION_JOB = 'messages:raw-retention';
export const MEDIA_RETENTION_JOB = 'messages:media-retention';
/** Rows cleared per statement: a year of messages is pruned in short transactions, never one long lock. */
const BATCH = 5_000;
/** Files removed per round (each is a file-system or object-store call). */
const MEDIA_BATCH = 500;

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

/**
 * Removes the files customers sent that are older than their company's `mediaRetentionDays` setting
 * ('forever', the default, keeps them): the message stays, its media marked `expired`. Only received files:
 * one a company sends (a campaign's, a quick message's) may be shared by many messages. The row is updated
 * before its file goes, so no message ever points at a missing file (a failed removal leaves an orphan file,
 * not a broken message). Returns how many files were removed.
 */
export const pruneReceivedMedia = async (deps: { systemEm: () => EntityManager; media: MediaStore; logger: Logger }, options: { now?: Date } = {}): Promise<number> => {
  const now = options.now ?? new Date();
  const connection = () => deps.systemEm().getConnection();
  const companies = await connection().execute<{ company_id: number; value: string }[]>(
    `select company_id, value from settings where key = 'mediaRetentionDays' and value <> 'forever'`,
    [],
    'all',
  );
  let removed = 0;
  for (const { company_id: companyId, value } of companies) {
    const days = Number(value);
    if (!Number.isInteger(days) || days <= 0) continue;
    const cutoff = new Date(now.getTime() - days * 24 * 60 * 60_000);
    for (;;) {
      const rows = await connection().execute<{ media_url: string }[]>(
        // RETURNING gives the new values: the file names come from the rows as they were.
        `with old as (
           select id, media_url from messages where company_id = ? and from_me = false and media_url is not null and created_at < ?
           order by id limit ? for update)
         update messages m set media_url = null, media_status = 'expired', updated_at = now() from old where m.id = old.id
         returning old.media_url`,
        [companyId, cutoff, MEDIA_BATCH],
        'all',
      );
      for (const row of rows) {
        await deps.media.remove(Number(companyId), row.media_url).catch((err: unknown) => deps.logger.warn({ err, companyId }, 'expired media file not removed'));
      }
      removed += rows.length;
      if (rows.length < MEDIA_BATCH) break;
    }
  }
  return removed;
};

/** Daily: raw message objects older than `days` (0: kept forever), and received media past each company's setting. */
export const registerMessageJobs = (registry: JobRegistry, systemEm: () => EntityManager, media: MediaStore, logger: Logger, days: number): void => {
  registry.define({
    name: RAW_RETENTION_JOB,
    every: '1 day',
    concurrency: 1,
    handler: async () => {
      const pruned = await pruneRawMessages(systemEm, { days });
      if (pruned > 0) logger.info({ pruned, days }, 'raw message objects pruned');
    },
  });
  registry.define({
    name: MEDIA_RETENTION_JOB,
    every: '1 day',
    concurrency: 1,
    handler: async () => {
      const removed = await pruneReceivedMedia({ systemEm, media, logger });
      if (removed > 0) logger.info({ removed }, 'received media past their company’s retention removed');
    },
  });
};
