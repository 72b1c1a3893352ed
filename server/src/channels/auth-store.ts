import type { EntityManager } from '@mikro-orm/postgresql';
import { forCompany } from '../db/tenant.js';
import { ChannelAuthKey } from '../modules/connections/whatsapp.entity.js';
import type { AuthStore } from './types.js';

/**
 * A session's credentials and keys in PostgreSQL (table channel_auth_keys), scoped to its connection.
 * `fence`: run inside each write's (and the clear's) transaction, fails it unless this process still holds
 * the connection's lease (see channels/lease.ts), so a process that lost its session never writes its keys
 * again, and one that never ran it never wipes them.
 */
export const createAuthStore = (
  systemEm: () => EntityManager,
  companyId: number,
  whatsappId: number,
  fence?: (tx: EntityManager) => Promise<void>,
): AuthStore => {
  const em = () => forCompany(systemEm(), companyId);
  return {
    async get<T>(key: string) {
      const row = await em().findOne(ChannelAuthKey, { whatsappId, key });
      return (row?.value as T) ?? null;
    },
    async getMany<T>(keys: string[]) {
      if (keys.length === 0) return {};
      const rows = await em().find(ChannelAuthKey, { whatsappId, key: { $in: keys } });
      return Object.fromEntries(rows.map((r) => [r.key, r.value as T]));
    },
    /**
     * One write of keys (and the creds that point at them) is all or nothing: half a write leaves a
     * session whose next pre-key id or ratchet does not match what is stored. Upserts go first, so a
     * failure never leaves a key deleted without its replacement.
     */
    async set(entries) {
      const removals = Object.entries(entries).filter(([, v]) => v === null || v === undefined).map(([k]) => k);
      const upserts = Object.entries(entries).filter(([, v]) => v !== null && v !== undefined);
      if (removals.length === 0 && upserts.length === 0) return;
      await em().transactional(async (tx) => {
        await fence?.(tx);
        if (upserts.length > 0) {
          await tx.upsertMany(
            ChannelAuthKey,
            upserts.map(([key, value]) => ({ whatsappId, companyId, key, value, updatedAt: new Date() })),
            { onConflictFields: ['whatsappId', 'key'], onConflictAction: 'merge', onConflictMergeFields: ['value', 'updatedAt'] },
          );
        }
        if (removals.length > 0) await tx.nativeDelete(ChannelAuthKey, { whatsappId, key: { $in: removals } });
      });
    },
    /** Fenced like a write: a process that does not hold the lease would wipe the keys under the owner's live session. */
    async clear() {
      await em().transactional(async (tx) => {
        if (fence) {
          // A deleted connection's keys went with it (and its lease): nothing is left to clear.
          const [connection] = await tx.execute<{ id: number }[]>(`select id from whatsapps where id = ?`, [whatsappId]);
          if (!connection) return;
          await fence(tx);
        }
        await tx.nativeDelete(ChannelAuthKey, { whatsappId });
      });
    },
  };
};
