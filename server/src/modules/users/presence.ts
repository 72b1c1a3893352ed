import type { EntityManager } from '@mikro-orm/postgresql';
import type { Presence } from '../../realtime/server.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import { forCompany } from '../../db/tenant.js';
import { User } from './user.entity.js';

/** Clients send `userStatus` every 5 minutes; a user silent for longer than this is offline. */
export const PRESENCE_TIMEOUT_MINUTES = 6;

export const createPresence = (systemEm: () => EntityManager): Presence => ({
  online: async (actor) => {
    await forCompany(systemEm(), actor.companyId).nativeUpdate(
      User,
      { id: actor.userId },
      { online: true, lastSeenAt: new Date() },
    );
  },
  offline: async (actor) => {
    await forCompany(systemEm(), actor.companyId).nativeUpdate(User, { id: actor.userId }, { online: false });
  },
});

export const registerPresenceJobs = (registry: JobRegistry, systemEm: () => EntityManager): void => {
  registry.define({
    name: 'users:mark-silent-offline',
    every: '1 minute',
    handler: async () => {
      await systemEm().nativeUpdate(
        User,
        { online: true, lastSeenAt: { $lt: new Date(Date.now() - PRESENCE_TIMEOUT_MINUTES * 60_000) } },
        { online: false },
      );
    },
  });
};
