import type { EntityManager } from '@mikro-orm/postgresql';
import { named } from '../db/sql.js';
import type { MediaStore } from '../media/storage.js';
import type { Contact } from '../modules/contacts/contact.entity.js';
import { digitsOnly } from '../modules/contacts/contact-identity.js';
import type { Message } from '../modules/messages/message.entity.js';
import { messageView } from '../modules/messages/message.presenter.js';
import { previewOf } from '../modules/messages/message-store.js';
import { RATING_TIMEOUT_HOURS } from '../modules/tickets/ticket-rating.js';
import type { Ticket } from '../modules/tickets/ticket.entity.js';
import { ticketView } from '../modules/tickets/ticket.presenter.js';
import type { MediaType } from '../modules/messages/message.entity.js';

/**
 * The common inbound case in two statements instead of a dozen ORM calls: a known contact (or a new
 * one) writing on its own chat. One read decides whether the case is common; one statement then creates
 * the contact if new, finds or creates the active ticket, stores the message, updates the ticket, deletes
 * the queue item and returns everything the announcement shows. Being one statement, it is atomic.
 * Anything else (groups, identity merges, contact changes, a rating reply, a race lost) answers null and
 * the general path, which handles every case, takes over.
 */
export interface FastInbound {
  companyId: number;
  whatsappId: number;
  queueItemId: number;
  wid: string;
  chat: { number?: string | null; lid?: string | null; name?: string | null; isGroup?: boolean; profilePicUrl?: string };
  participant?: unknown;
  fromMe: boolean;
  body: string;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
  quotedId?: string | null;
  raw?: unknown;
  createdAt: Date;
}

export interface FastStored {
  message: ReturnType<typeof messageView>;
  ticket: ReturnType<typeof ticketView>;
  contact: Contact;
  ticketId: number;
  messageId: number;
  isNewTicket: boolean;
}

interface LookupRow {
  id: number;
  name: string;
  number: string | null;
  lid: string | null;
  profile_pic_url: string;
  active_id: number | null;
  awaiting_id: number | null;
}

/** snake_case row (from row_to_json) → the entity's camelCase fields, timestamps as Dates. */
const camel = <T>(row: Record<string, unknown>): T => {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const name = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    out[name] = typeof value === 'string' && /(_at|_since|_until)$/.test(key) ? new Date(value) : value;
  }
  return out as T;
};

const isPlaceholderName = (c: { name: string; number: string | null; lid: string | null }) =>
  !c.name.trim() || c.name === c.number || c.name === c.lid;

/** Whether the general path must update this contact (identity, name, picture): then it is not the common case. */
const contactNeedsChange = (row: LookupRow, number: string | null, lid: string | null, input: FastInbound['chat']) =>
  (number !== null && row.number !== number) ||
  (lid !== null && row.lid !== lid) ||
  (!!input.name?.trim() && isPlaceholderName(row) && row.name !== input.name.trim()) ||
  (!!input.profilePicUrl && input.profilePicUrl !== row.profile_pic_url);

export const storeInboundFast = async (em: EntityManager, media: MediaStore, input: FastInbound): Promise<FastStored | null> => {
  if (input.chat.isGroup || input.participant) return null;
  const number = digitsOnly(input.chat.number);
  const lid = digitsOnly(input.chat.lid);
  if (!number && !lid) return null;

  const found: LookupRow[] = await em.execute(
    `select c.id, c.name, c.number, c.lid, c.profile_pic_url,
            (select t.id from tickets t where t.contact_id = c.id and t.whatsapp_id = ? and t.status in ('open', 'pending') limit 1) as active_id,
            (select t.id from tickets t where t.contact_id = c.id and t.whatsapp_id = ? and t.status = 'closed'
                and t.awaiting_rating_since > ? limit 1) as awaiting_id
       from contacts c where c.company_id = ? and (c.number = ? or c.lid = ?)`,
    [input.whatsappId, input.whatsappId, new Date(Date.now() - RATING_TIMEOUT_HOURS * 3600_000), input.companyId, number, lid],
  );
  if (found.length > 1) return null;
  const known = found[0];
  if (known && (contactNeedsChange(known, number, lid, input.chat) || (known.awaiting_id && !known.active_id && !input.fromMe))) return null;

  const preview = previewOf({ body: input.body, mediaType: input.mediaType, mediaName: input.mediaName });
  const rows: Record<string, unknown>[] = await em.execute(
    ...named(
    `with
     new_contact as (
       insert into contacts (company_id, name, number, lid, email, profile_pic_url, is_group, uuid, created_at, updated_at)
       select :co, :name, :number, :lid, '', :pic, false, gen_random_uuid(), now(), now() where :contactId::int is null
       on conflict do nothing returning *),
     contact as (select * from contacts where id = :contactId::int union all select * from new_contact),
     -- The contact's id as a parameter of the lookup: joined to the CTE instead, the planner walked every
     -- active ticket of the connection (6 ms at 2,000 tickets, growing with them).
     active as (
       select t.* from tickets t
        where t.contact_id = (select id from contact limit 1) and t.whatsapp_id = :wa and t.status in ('open', 'pending')
        for update),
     new_ticket as (
       insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, is_group, chatbot, last_message, last_message_at,
           last_from_me, unread_messages, use_integration, bot_menu_count, rating_attempts, created_at, updated_at)
       select gen_random_uuid(), :co, 'pending', c.id, :wa, false, false, :preview, :at, :fromMe,
              case when :fromMe then 0 else 1 end, false, 0, 0, now(), now()
         from contact c
        where not exists (select 1 from active)
          and not exists (select 1 from messages where whatsapp_id = :wa and wid = :wid)
       on conflict (contact_id, whatsapp_id) where status in ('open', 'pending') do nothing
       returning *),
     tracking as (
       insert into ticket_trackings (company_id, ticket_id, whatsapp_id, queued_at, rated, created_at)
       select :co, id, :wa, now(), false, now() from new_ticket),
     ticket as (select id from active union all select id from new_ticket),
     msg as (
       insert into messages (company_id, ticket_id, wid, whatsapp_id, contact_id, user_id, body, from_me, read, ack, media_type,
           media_url, media_name, quoted_msg_id, is_deleted, is_edited, is_system, participant, raw, created_at, updated_at)
       select :co, t.id, :wid, :wa, case when :fromMe then null else c.id end, null, :body, :fromMe, :fromMe,
              case when :fromMe then 2 else 0 end, :mediaType, :mediaUrl, :mediaName,
              (select q.id from messages q where q.whatsapp_id = :wa and q.wid = :quoted), false, false, false, null, :raw::jsonb, :at, now()
         from ticket t, contact c
       on conflict (whatsapp_id, wid) do nothing
       returning *),
     updated as (
       update tickets set
         unread_messages = case when :fromMe then 0 else tickets.unread_messages + 1 end,
         last_message = case when tickets.last_message_at is null or tickets.last_message_at <= :at then :preview else tickets.last_message end,
         last_from_me = case when tickets.last_message_at is null or tickets.last_message_at <= :at then :fromMe else tickets.last_from_me end,
         last_message_at = greatest(coalesce(tickets.last_message_at, :at), :at),
         updated_at = now()
       from msg where tickets.id = msg.ticket_id
       returning tickets.*),
     done as (delete from inbound_queue where id = :queueItem and exists (select 1 from msg)),
     final_ticket as (select * from updated union all select * from new_ticket)
     select
       (select to_jsonb(m) - 'raw' from msg m) as message,
       (select to_jsonb(t) from final_ticket t) as ticket,
       (select to_jsonb(c) from contact c) as contact,
       exists (select 1 from new_ticket) as created,
       (select json_build_object('id', w.id, 'name', w.name, 'status', w.status) from whatsapps w where w.id = :wa) as whatsapp,
       (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = (select user_id from final_ticket)) as "user",
       (select json_build_object('id', q.id, 'name', q.name, 'color', q.color) from queues q where q.id = (select queue_id from final_ticket)) as queue,
       (select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color)), '[]'::json)
          from ticket_tags tt join tags g on g.id = tt.tag_id where tt.ticket_id = (select id from final_ticket)) as tags`,
    {
      co: input.companyId,
      wa: input.whatsappId,
      contactId: known?.id ?? null,
      name: (input.chat.name ?? '').trim() || number || lid,
      number,
      lid,
      pic: input.chat.profilePicUrl ?? '',
      preview,
      at: input.createdAt,
      fromMe: input.fromMe,
      wid: input.wid,
      body: input.body,
      mediaType: input.mediaType,
      mediaUrl: input.mediaUrl,
      mediaName: input.mediaName,
      quoted: input.quotedId ?? null,
      raw: input.raw === undefined || input.raw === null ? null : JSON.stringify(input.raw),
      queueItem: input.queueItemId,
    }),
  );
  const row = rows[0] as {
    message: Record<string, unknown> | null;
    ticket: Record<string, unknown> | null;
    contact: Record<string, unknown> | null;
    created: boolean;
    whatsapp: { id: number; name: string; status: string } | null;
    user: { id: number; name: string } | null;
    queue: { id: number; name: string; color: string } | null;
    tags: { id: number; name: string; color: string }[];
  };
  // A race lost (a new contact or ticket created meanwhile, the ticket closed): the general path decides.
  if (!row?.message || !row.ticket || !row.contact) return null;
  const message = camel<Message>(row.message);
  const ticket = camel<Ticket>(row.ticket);
  const contact = camel<Contact>(row.contact);
  return {
    // A quoted message is presented by the general presenter (it needs the quoted sender too).
    message: messageView(media, message, { contact: message.contactId ? contact : undefined }, null),
    ticket: ticketView(ticket, {
      contact,
      user: row.user ?? undefined,
      queue: row.queue ?? undefined,
      whatsapp: row.whatsapp ?? undefined,
      tags: row.tags,
    }),
    contact,
    ticketId: ticket.id,
    messageId: message.id,
    isNewTicket: row.created,
  };
};
