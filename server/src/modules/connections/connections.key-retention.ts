import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';

export const KEY_RETENTION_JOB = 'connections:signal-key-retention';
/** Rows deleted per statement: a year's keys of twenty numbers go in short transactions, never one long lock. */
const BATCH = 5_000;

/**
 * The key kinds that grow with every contact and group a number ever talked to, and that come back by
 * themselves when needed again:
 * - `session`: a contact device's signal session. Ours is gone → the contact's next message does not decrypt,
 *   Baileys answers with a retry receipt carrying our keys, the phone starts a new session and sends the
 *   message again; for our own next send Baileys fetches the contact's pre-key bundle and starts one.
 * - `sender-key`: a group participant's sender key; a missing one is asked again through the same retry.
 * - `sender-key-memory`: which participants already got our own sender key; without it they get it again.
 * - `device-list`: a user's devices, fetched again on a miss.
 * Kept forever: the credentials, pre-keys (Baileys deletes those used), app-state keys and versions, LID
 * mappings (a message's author is resolved through them) and identity keys.
 */
const IDLE_KINDS = ['session', 'sender-key', 'sender-key-memory', 'device-list'];

/**
 * Deletes signal keys of those kinds not written for `days` (a session is rewritten with every message it
 * encrypts or decrypts, so that is the time since the contact last wrote or was written to). A key written
 * while the statement runs is kept: its new `updated_at` fails the condition. Returns how many were deleted.
 */
export const pruneIdleSignalKeys = async (systemEm: () => EntityManager, options: { days: number; now?: Date }): Promise<number> => {
  if (options.days <= 0) return 0;
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.days * 24 * 60 * 60_000);
  // Key names are `${kind}-${id}`; 'sender-key-%' also matches 'sender-key-memory-%', which is meant.
  const kinds = IDLE_KINDS.map(() => `key like ?`).join(' or ');
  const patterns = IDLE_KINDS.map((kind) => `${kind}-%`);
  let pruned = 0;
  for (;;) {
    const result = await systemEm()
      .getConnection()
      .execute<{ affectedRows: number }>(
        `delete from channel_auth_keys where (whatsapp_id, key) in (
           select whatsapp_id, key from channel_auth_keys where updated_at < ? and (${kinds}) limit ?)
         and updated_at < ?`,
        [cutoff, ...patterns, BATCH, cutoff],
        'run',
      );
    pruned += result.affectedRows;
    if (result.affectedRows < BATCH) return pruned;
  }
};

/** Daily: idle signal sessions and group keys of every connection (0 days: kept forever). */
export const registerKeyRetentionJob = (registry: JobRegistry, systemEm: () => EntityManager, logger: Logger, days: number): void => {
  registry.define({
    name: KEY_RETENTION_JOB,
    every: '1 day',
    concurrency: 1,
    handler: async () => {
      const pruned = await pruneIdleSignalKeys(systemEm, { days });
      if (pruned > 0) logger.info({ pruned, days }, 'idle signal keys pruned');
    },
  });
};
