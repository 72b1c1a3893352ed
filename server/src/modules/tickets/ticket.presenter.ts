import type { EntityManager } from '@mikro-orm/postgresql';
import type { TicketView } from '@atrium/shared';
import type { TicketPlacement } from '../../events/bus.js';
import { camelRow, intArray } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import type { Contact } from '../contacts/contact.entity.js';
import { presentContact } from '../contacts/index.js';

import type { ConversationHold } from './conversation-hold.entity.js';
import { holdView } from './holds.js';
import type { Ticket } from './ticket.entity.js';


type TicketFields = Pick<
  Ticket,
  | 'id'
  | 'uuid'
  | 'status'
  | 'contactId'
  | 'userId'
  | 'queueId'
  | 'whatsappId'
  | 'isGroup'
  | 'lastMessage'
  | 'lastMessageAt'
  | 'unreadMessages'
  | 'companyId'
  | 'createdAt'
  | 'updatedAt'
>;

/** What a ticket's view shows of its related rows (entities, or plain rows read by the inbound pipeline). */
export interface TicketRelations {
  contact?: Contact;
  user?: { id: number; name: string };
  queue?: { id: number; name: string; color: string };
  whatsapp?: { id: number; name: string; status: string };
  /** The automation holding the conversation, if any (holds.ts). */
  hold: Pick<ConversationHold, 'holder' | 'holderId' | 'active'> | null;
  tags: { id: number; name: string; color: string }[];
}

/** A ticket as the API shows it, from the ticket and its already loaded relations. */
export const ticketView = (t: TicketFields, related: TicketRelations): TicketView<Date> => {
  const { contact, user, queue, whatsapp } = related;
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    contactId: t.contactId,
    contact: contact ? presentContact(contact) : null,
    userId: t.userId,
    user: user ? { id: user.id, name: user.name } : null,
    queueId: t.queueId,
    queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
    whatsappId: t.whatsappId,
    whatsapp: whatsapp ? { id: whatsapp.id, name: whatsapp.name, status: whatsapp.status } : null,
    isGroup: t.isGroup,
    lastMessage: t.lastMessage,
    lastMessageAt: t.lastMessageAt ?? null,
    unreadMessages: t.unreadMessages,
    ...holdView(related.hold),
    companyId: t.companyId,
    tags: related.tags.map((tag) => ({ id: tag.id, name: tag.name, color: tag.color })),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
};

export type PresentedTicket = TicketView<Date>;

/**
 * Tickets by id, as the API shows them, in the order asked, read in one statement with their contact, user,
 * queue, connection, tags and automation hold (the ticket list's page: its hot path). `em` is bound to the
 * company. The one loader of the ticket view: what it shows is what the database holds.
 */
export const presentTickets = async (em: EntityManager, ids: number[]): Promise<TicketView<Date>[]> => {
  if (ids.length === 0) return [];
  const rows = await em.execute<
    {
      ticket: Record<string, unknown>;
      contact: Record<string, unknown> | null;
      user: { id: number; name: string } | null;
      queue: { id: number; name: string; color: string } | null;
      whatsapp: { id: number; name: string; status: string } | null;
      hold: Record<string, unknown> | null;
      tags: { id: number; name: string; color: string }[];
    }[]
  >(
    `select to_jsonb(t) as ticket, to_jsonb(c) as contact,
            (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = t.user_id) as "user",
            (select json_build_object('id', q.id, 'name', q.name, 'color', q.color) from queues q where q.id = t.queue_id) as queue,
            (select json_build_object('id', w.id, 'name', w.name, 'status', w.status) from whatsapps w where w.id = t.whatsapp_id) as whatsapp,
            (select to_jsonb(h) from conversation_holds h where h.ticket_id = t.id) as hold,
            (select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) order by g.id), '[]'::json)
               from ticket_tags tt join tags g on g.id = tt.tag_id where tt.ticket_id = t.id) as tags
       from tickets t left join contacts c on c.id = t.contact_id
      where t.id = any(?::int[]) and t.company_id = ?`,
    [intArray(ids), requireTenant(em)],
  );
  const byTicket = new Map(
    rows.map((r) => {
      const ticket = camelRow<Ticket>(r.ticket);
      const view = ticketView(ticket, {
        contact: r.contact ? camelRow<Contact>(r.contact) : undefined,
        user: r.user ?? undefined,
        queue: r.queue ?? undefined,
        whatsapp: r.whatsapp ?? undefined,
        hold: r.hold ? camelRow<ConversationHold>(r.hold) : null,
        tags: r.tags,
      });
      return [ticket.id, view] as const;
    }),
  );
  return ids.flatMap((id) => byTicket.get(id) ?? []);
};

/** One ticket as the API shows it; the manager's pending changes are written first, since the view is read back. */
export const presentTicket = async (em: EntityManager, ticket: Pick<Ticket, 'id'>): Promise<PresentedTicket> => {
  await em.flush();
  const [view] = await presentTickets(em, [ticket.id]);
  return view;
};

/** Where a ticket sits, which decides who hears about it. */
export const placementOf = (t: Ticket): TicketPlacement => ({
  id: t.id,
  companyId: t.companyId,
  status: t.status,
  queueId: t.queueId,
  userId: t.userId,
});
