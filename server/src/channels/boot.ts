import { setTimeout as delay } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import { Company } from '../modules/companies/company.entity.js';
import { Whatsapp } from '../modules/connections/whatsapp.entity.js';
import type { ChannelManager } from './manager.js';

export interface BootOptions {
  /** Gap between two connections' starts (default 1500 ms), so a restart does not open every socket at once. */
  staggerMs?: number;
}

/**
 * At start-up, the paired connections of every active company reconnect, one after another in the
 * background. A connection without a linked phone is not started (it would only show QR codes nobody
 * looks at until TIMEOUT): it shows DISCONNECTED until an admin asks for a QR code.
 * Resolves once the plan is made; the starts follow. A stopAll() ends the plan.
 */
export const startAllSessions = async (
  systemEm: () => EntityManager,
  channels: ChannelManager,
  logger: Logger,
  options: BootOptions = {},
): Promise<{ done: Promise<void> }> => {
  const staggerMs = options.staggerMs ?? 1_500;
  const em = systemEm();
  const active = await em.find(Company, { status: true }, { fields: ['id'] });
  const connections = await em.find(Whatsapp, { companyId: { $in: active.map((c) => c.id) } }, { orderBy: { id: 'asc' } });
  const toStart: Whatsapp[] = [];
  // A connection another server process runs (perhaps showing its QR code) is that process's to show.
  const elsewhere = await channels.runElsewhere(connections.map((c) => c.id));
  for (const connection of connections) {
    if (!channels.hasProvider(connection.provider)) {
      logger.warn({ whatsappId: connection.id, provider: connection.provider }, 'connection provider not enabled; not started');
      continue;
    }
    if (await channels.isPaired(connection)) {
      toStart.push(connection);
    } else if (elsewhere.has(connection.id)) {
      continue;
    } else if (connection.status !== 'DISCONNECTED' || connection.qrcode) {
      connection.status = 'DISCONNECTED';
      connection.qrcode = '';
    }
  }
  await em.flush();

  const signal = channels.stopSignal;
  // Simulated phones have no network to spare: they start at once, the real ones one after another.
  const simulated = toStart.filter((c) => channels.isSimulated(c.provider));
  const real = toStart.filter((c) => !channels.isSimulated(c.provider));
  for (const connection of simulated) {
    void channels.start(connection).catch((err: unknown) => logger.error({ err, whatsappId: connection.id }, 'session start failed'));
  }
  const done = (async () => {
    for (const [i, connection] of real.entries()) {
      if (i > 0) await delay(staggerMs, undefined, { ref: false, signal }).catch(() => undefined);
      if (signal.aborted) return;
      void channels.start(connection).catch((err: unknown) => logger.error({ err, whatsappId: connection.id }, 'session start failed'));
    }
  })();
  return { done };
};
