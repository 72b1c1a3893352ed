import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../logger.js';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';
import { TenantGuard } from './tenant.js';
import { AfterCommitSubscriber } from '../events/after-commit.js';

/** Tables other libraries own in the same database; the schema diff leaves them alone. */
export const FOREIGN_TABLES = ['agenda_jobs', 'agenda_job_logs', 'mikro_orm_migrations'];

export const ormOptions = (url: string, logger?: Logger): Options => ({
  clientUrl: url,
  entities,
  extensions: [Migrator],
  subscribers: [new TenantGuard(), new AfterCommitSubscriber()],
  // Every request, job and socket handler works on its own fork; the global manager must never be used.
  allowGlobalContext: false,
  autoJoinRefsForFilters: false,
  forceUtcTimezone: true,
  pool: { min: 0, max: 20 },
  migrations: {
    migrationsList,
    transactional: true,
    allOrNothing: true,
    snapshot: false,
  },
  schemaGenerator: { skipTables: FOREIGN_TABLES },
  debug: false,
  logger: (message) => logger?.trace({ orm: message }, 'orm'),
});

/** Connects and brings the schema up to date with the checked-in migrations (never a schema:update). */
export const initOrm = async (url: string, logger?: Logger): Promise<MikroORM> => {
  const orm = await MikroORM.init(ormOptions(url, logger));
  const applied = await orm.getMigrator().up();
  if (applied.length > 0) logger?.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
  return orm;
};
