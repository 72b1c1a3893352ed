import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import { Company } from '../modules/companies/company.entity.js';
import { Whatsapp } from '../modules/connections/whatsapp.entity.js';
import type { ChannelManager } from './manager.js';

/** At start-up, every connection of every active company reconnects (in the background). */
export const startAllSessions = async (systemEm: () => EntityManager, channels: ChannelManager, logger: Logger) => {
  const em = systemEm();
  const active = await em.find(Company, { status: true }, { fields: ['id'] });
  const connections = await em.find(Whatsapp, { companyId: { $in: active.map((c) => c.id) } });
  for (const connection of connections) {
    if (!channels.hasProvider(connection.provider)) {
      logger.warn({ whatsappId: connection.id, provider: connection.provider }, 'connection provider not enabled; not started');
      continue;
    }
    void channels.start(connection).catch((err: unknown) => logger.error({ err, whatsappId: connection.id }, 'session start failed'));
  }
};
