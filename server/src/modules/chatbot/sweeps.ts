import { LockMode } from '@mikro-orm/core';
import { forCompany } from '../../db/tenant.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { closeTicket, moveToQueue, transitionDeps } from '../transitions/index.js';
import { placementOf, SYSTEM } from '../tickets/index.js';
import { announceTicket, type ChatbotDeps } from './chatbot.js';

/**
 * timeToTransfer / transferQueueId (spec 03 section 5 and its note): a waiting ticket without a queue
 * moves to the connection's transfer queue once the customer has been silent for timeToTransfer minutes,
 * and the clients hear about it. Returns the ids of the tickets moved.
 */
export const transferSweep = async (deps: ChatbotDeps, now: Date): Promise<number[]> => {
  const connections = await deps.systemEm().find(Whatsapp, { timeToTransfer: { $gt: 0 }, transferQueueId: { $ne: null } });
  const moved: number[] = [];
  for (const connection of connections) {
    const em = forCompany(deps.systemEm(), connection.companyId);
    const cutoff = new Date(now.getTime() - connection.timeToTransfer * 60_000);
    // One conditional update: a ticket taken or routed in the meantime is left alone.
    const rows = await em.execute<{ id: number }[]>(
      `update tickets t set queue_id = ?, updated_at = now()
       where t.company_id = ? and t.whatsapp_id = ? and t.status = 'pending' and t.queue_id is null and t.user_id is null
         and coalesce((select max(m.created_at) from messages m where m.ticket_id = t.id and m.from_me = false), t.created_at) <= ?
       returning t.id`,
      [connection.transferQueueId, connection.companyId, connection.id, cutoff],
    );
    for (const { id } of rows) {
      const ticket = await em.findOneOrFail(Ticket, id);
      await moveToQueue(em, ticket, SYSTEM, connection.transferQueueId);
      await em.flush();
      await announceTicket(deps, ticket, { ...placementOf(ticket), queueId: null }, SYSTEM);
      moved.push(id);
    }
  }
  return moved;
};

/**
 * expiresTicket / expiresInactiveMessage (spec 03 section 5 and its note): an open ticket (not a group)
 * whose last message was ours, older than expiresTicket minutes, gets expiresInactiveMessage (sent and
 * stored, if any) and is closed; its attendance cycle ends and the clients hear about it.
 * Returns the ids of the tickets closed.
 */
export const expirySweep = async (deps: ChatbotDeps, now: Date): Promise<number[]> => {
  const connections = await deps.systemEm().find(Whatsapp, { expiresTicket: { $gt: 0 } });
  const transitions = transitionDeps(deps);
  const closed: number[] = [];
  for (const connection of connections) {
    const cutoff = new Date(now.getTime() - connection.expiresTicket * 60_000);
    const stale = { whatsappId: connection.id, status: 'open', isGroup: false, lastFromMe: true, lastMessageAt: { $lte: cutoff } } as const;
    const candidates = await forCompany(deps.systemEm(), connection.companyId).find(Ticket, stale, { fields: ['id'] });
    for (const { id } of candidates) {
      const em = forCompany(deps.systemEm(), connection.companyId);
      // Locked and checked again: the customer may have answered, or an agent closed it, since the query.
      const result = await em.transactional(async (tx) => {
        const ticket = await tx.findOne(Ticket, { id, ...stale }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!ticket) return null;
        const previous = placementOf(ticket);
        // The inactivity message (if any) is the last word: no rating request after it.
        await closeTicket(transitions, tx, ticket, SYSTEM, { farewell: connection.expiresInactiveMessage.trim(), now });
        return { ticket, previous };
      });
      if (!result) continue;
      await announceTicket(deps, result.ticket, result.previous, SYSTEM);
      closed.push(id);
    }
  }
  return closed;
};

/** Both sweeps every minute, as Agenda jobs stored in the database (they survive a restart). */
export const registerChatbotJobs = (registry: JobRegistry, deps: ChatbotDeps): void => {
  registry.define({
    name: 'chatbot:transfer-waiting-tickets',
    every: '1 minute',
    concurrency: 1,
    handler: async () => {
      await transferSweep(deps, new Date());
    },
  });
  registry.define({
    name: 'chatbot:expire-inactive-tickets',
    every: '1 minute',
    concurrency: 1,
    handler: async () => {
      await expirySweep(deps, new Date());
    },
  });
};
