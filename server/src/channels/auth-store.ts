import type { EntityManager } from '@mikro-orm/postgresql';
import { forCompany } from '../db/tenant.js';
import { ChannelAuthKey } from '../modules/connections/whatsapp.entity.js';
import type { AuthStore } from './types.js';

/** A session's credentials and keys in PostgreSQL (table channel_auth_keys), scoped to its connection. */
export const createAuthStore = (systemEm: () => EntityManager, companyId: number, whatsappId: number): AuthStore => {
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
    async set(entries) {
      const scoped = em();
      const removals = Object.entries(entries).filter(([, v]) => v === null || v === undefined).map(([k]) => k);
      const upserts = Object.entries(entries).filter(([, v]) => v !== null && v !== undefined);
      if (removals.length > 0) await scoped.nativeDelete(ChannelAuthKey, { whatsappId, key: { $in: removals } });
      if (upserts.length > 0) {
        await scoped.upsertMany(
          ChannelAuthKey,
          upserts.map(([key, value]) => ({ whatsappId, companyId, key, value })),
          { onConflictFields: ['whatsappId', 'key'], onConflictAction: 'merge', onConflictMergeFields: ['value'] },
        );
      }
    },
    async clear() {
      await em().nativeDelete(ChannelAuthKey, { whatsappId });
    },
  };
};
