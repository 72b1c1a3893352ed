import type { EntityManager } from '@mikro-orm/postgresql';
import type { TicketView } from '@atrium/shared';
import type { TicketPlacement } from '../../events/bus.js';
import { camelRow, intArray } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { presentContact } from '../contacts/index.js';

import { Queue } from '../queues/queue.entity.js';
import { Tag, TicketTag } from '../tags/tag.entity.js';
import { User } from '../users/user.entity.js';
import type { ConversationHold } from './conversation-hold.entity.js';
import { findHolds, holdView } from './holds.js';
import type { Ticket } from './ticket.entity.js';


const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v !== null))];

/** Tickets as the API shows them, with contact, user, queue, connection and tags, loaded in a few queries. */
export const presentTickets = async (em: EntityManager, tickets: Ticket[]) => {
  if (tickets.length === 0) return [];
  // Rows already in the identity map (the pipeline's contact and connection) cost no query.
  const load = <T extends object>(entity: new () => T, wanted: number[]): Promise<T[]> =>
    wanted.length === 0 ? Promise.resolve([]) : em.find(entity, { id: { $in: wanted } } as never);
  // One after another: inside a transaction they share one connection anyway.
  const contacts = await load(Contact, ids(tickets.map((t) => t.contactId)));
  const users = await load(User, ids(tickets.map((t) => t.userId)));
  const queues = await load(Queue, ids(tickets.map((t) => t.queueId)));
  const whatsapps = await load(Whatsapp, ids(tickets.map((t) => t.whatsappId)));
  const links = await em.find(TicketTag, { ticketId: { $in: tickets.map((t) => t.id) } });
  const holds = await findHolds(em, tickets.map((t) => t.id));
  const tags = byId(await load(Tag, ids(links.map((l) => l.tagId))));
  const contactMap = byId(contacts);
  const userMap = byId(users);
  const queueMap = byId(queues);
  const whatsappMap = byId(whatsapps);
  return tickets.map((t) =>
    ticketView(t, {
      contact: contactMap.get(t.contactId),
      user: t.userId ? userMap.get(t.userId) : undefined,
      queue: t.queueId ? queueMap.get(t.queueId) : undefined,
      whatsapp: t.whatsappId ? whatsappMap.get(t.whatsappId) : undefined,
      hold: holds.get(t.id) ?? null,
      tags: links
        .filter((l) => l.ticketId === t.id)
        .map((l) => tags.get(l.tagId))
        .filter((tag): tag is Tag => tag !== undefined),
    }),
  );
};

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
 * queue, connection and tags (the ticket list's page: its hot path). `em` is bound to the company.
 */
export const presentTicketsByIds = async (em: EntityManager, ids: number[]): Promise<TicketView<Date>[]> => {
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

export const presentTicket = async (em: EntityManager, ticket: Ticket): Promise<PresentedTicket> =>
  (await presentTickets(em, [ticket]))[0];

/** Where a ticket sits, which decides who hears about it. */
export const placementOf = (t: Ticket): TicketPlacement => ({
  id: t.id,
  companyId: t.companyId,
  status: t.status,
  queueId: t.queueId,
  userId: t.userId,
});
