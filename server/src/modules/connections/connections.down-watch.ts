import type { EntityManager } from '@mikro-orm/postgresql';
import { forCompany } from '../../db/tenant.js';
import type { EventBus } from '../../events/bus.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { Mailer } from '../../mail/mailer.js';
import { User } from '../users/user.entity.js';
import { presentSession } from './connections.service.js';
import { Whatsapp } from './whatsapp.entity.js';

export const DOWN_WATCH_JOB = 'connections:down-watch';
/** The reason a connection row shows while it retries past the limit ("downTooLong:<minutes>"). */
export const DOWN_REASON = 'downTooLong';

export interface DownWatchDeps {
  systemEm: () => EntityManager;
  events: EventBus;
  logger: Logger;
  /** Tells the admins by e-mail too, when SMTP is set. */
  mailer?: Mailer;
}

/**
 * Tells each company's admins, once per outage, about its linked numbers down for more than `minutes`
 * (a session that left CONNECTED and did not come back; the status handler keeps `down_since`): a realtime
 * notice to the admins, the row's reason when it is still retrying (a stopped one keeps the reason that says
 * what to do), and an e-mail when a mailer is given. Claimed with one update, so two processes never both
 * tell. Returns the connections reported.
 */
export const noticeDownConnections = async (deps: DownWatchDeps, options: { minutes: number; now?: Date }): Promise<number[]> => {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - options.minutes * 60_000);
  const reason = `${DOWN_REASON}:${options.minutes}`;
  const rows = await deps.systemEm().getConnection().execute<{ id: number; company_id: number; down_since: Date }[]>(
    `update whatsapps set down_notified = true,
       disconnect_reason = case when status = 'OPENING' then ? else disconnect_reason end, updated_at = now()
     where down_since is not null and down_since <= ? and not down_notified
     returning id, company_id, down_since`,
    [reason, cutoff],
    'all',
  );
  for (const row of rows) {
    const companyId = Number(row.company_id);
    const em = forCompany(deps.systemEm().fork(), companyId);
    const connection = await em.findOne(Whatsapp, Number(row.id));
    if (!connection) continue;
    const since = new Date(row.down_since);
    deps.logger.warn({ whatsappId: connection.id, companyId, since }, 'connection down for too long; admins told');
    deps.events.emit('connection.session', { companyId, session: presentSession(connection) });
    deps.events.emit('connection.down', { companyId, whatsappId: connection.id, name: connection.name, number: connection.number, since, minutes: options.minutes });
    if (deps.mailer?.enabled) await mailAdmins(deps, em, connection, since);
  }
  return rows.map((r) => Number(r.id));
};

const mailAdmins = async (deps: DownWatchDeps, em: EntityManager, connection: Whatsapp, since: Date): Promise<void> => {
  const admins = await em.find(User, { profile: 'admin' }, { fields: ['email'] });
  const name = `${connection.name}${connection.number ? ` (+${connection.number})` : ''}`;
  for (const admin of admins) {
    await deps.mailer!.send({
      to: admin.email,
      subject: `Atrium: a conexão ${name} está fora do ar / connection ${name} is down`,
      text: [
        `A conexão ${name} está desconectada desde ${since.toISOString()}. Abra Conexões para reconectá-la.`,
        '',
        `The connection ${name} has been down since ${since.toISOString()}. Open Connections to reconnect it.`,
      ].join('\n'),
    }).catch((err: unknown) => deps.logger.warn({ err, whatsappId: connection.id }, 'down notice e-mail failed'));
  }
};

/** Every minute: the connections down for longer than the configured minutes. */
export const registerConnectionJobs = (registry: JobRegistry, deps: DownWatchDeps, minutes: number): void => {
  registry.define({
    name: DOWN_WATCH_JOB,
    every: '1 minute',
    concurrency: 1,
    handler: async () => {
      await noticeDownConnections(deps, { minutes });
    },
  });
};
