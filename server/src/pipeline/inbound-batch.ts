import type { EntityManager } from '@mikro-orm/postgresql';
import { camelRow as camel, executePrepared, intArray, named } from '../db/sql.js';
import type { MediaStore } from '../media/storage.js';
import type { Contact } from '../modules/contacts/contact.entity.js';
import { digitsOnly, isPlaceholderName } from '../modules/contacts/index.js';
import type { MediaType, Message } from '../modules/messages/message.entity.js';
import { messageCounters, messageView, previewOf } from '../modules/messages/index.js';
import { RATING_TIMEOUT_HOURS } from '../modules/transitions/index.js';
import { ticketView } from '../modules/tickets/index.js';
import type { Ticket } from '../modules/tickets/ticket.entity.js';
import type { ConversationHold } from '../modules/tickets/conversation-hold.entity.js';

/**
 * The common inbound case, for a whole batch of messages in two statements instead of a dozen ORM calls per
 * message: a known contact (or a new one) writing on its own chat, or answering a rating request. One read
 * decides which messages are the common case; one statement then creates the new contacts, finds or creates the active tickets, stores the
 * messages, updates the tickets and returns everything the announcements show. Being one statement, it is
 * atomic. Anything else (groups, identity merges, contact changes, a duplicate, a race lost)
 * answers null for that message, and the general path, which handles every case, takes it over.
 *
 * The batch's messages belong to one connection and to different chats (see Batcher).
 */
export interface FastInbound {
  wid: string;
  chat: { number?: string | null; lid?: string | null; name?: string | null; isGroup?: boolean; profilePicUrl?: string };
  participant?: unknown;
  fromMe: boolean;
  body: string;
  mediaType: MediaType;
  mediaUrl: string | null;
  mediaName: string | null;
  mediaStatus?: 'pending' | 'failed' | null;
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
  quotedMsgId: number | null;
  isNewTicket: boolean;
  /** Stored on the closed ticket that asked for a rating: the answer to it. */
  ratingReply: boolean;
}

interface ContactRow {
  id: number;
  name: string;
  number: string | null;
  lid: string | null;
  profile_pic_url: string;
  active_id: number | null;
  awaiting_id: number | null;
  [column: string]: unknown;
}

/** Whether the general path must update this contact (identity, name, picture): then it is not the common case. */
const contactNeedsChange = (row: ContactRow, number: string | null, lid: string | null, input: FastInbound['chat']) =>
  (number !== null && row.number !== number) ||
  (lid !== null && row.lid !== lid) ||
  (!!input.name?.trim() && isPlaceholderName(row) && row.name !== input.name.trim()) ||
  (!!input.profilePicUrl && input.profilePicUrl !== row.profile_pic_url);

/** A JSON list of texts as a query parameter, read back with `jsonb_array_elements_text`. */
const textList = (values: string[]) => JSON.stringify(values);

/** Which contact each message belongs to: a known one, a new one (undefined), or not the common case (null). */
const lookUp = async (
  em: EntityManager,
  connection: { id: number; companyId: number },
  inputs: { number: string | null; lid: string | null }[],
): Promise<ContactRow[]> => {
  const numbers = inputs.flatMap((i) => (i.number ? [i.number] : []));
  const lids = inputs.flatMap((i) => (i.lid ? [i.lid] : []));
  return executePrepared(
    em,
    'inbound-batch-lookup',
    ...named(
      `select c.*,
              (select t.id from tickets t where t.contact_id = c.id and t.whatsapp_id = :wa and t.status in ('open', 'pending') limit 1) as active_id,
              (select t.id from tickets t where t.contact_id = c.id and t.whatsapp_id = :wa and t.status = 'closed'
                  and t.awaiting_rating_since > :since limit 1) as awaiting_id
         from contacts c
        where c.company_id = :co
          and (c.number = any(array(select jsonb_array_elements_text(:numbers::jsonb)))
               or c.lid = any(array(select jsonb_array_elements_text(:lids::jsonb))))`,
      {
        wa: connection.id,
        co: connection.companyId,
        since: new Date(Date.now() - RATING_TIMEOUT_HOURS * 3600_000),
        numbers: textList(numbers),
        lids: textList(lids),
      },
    ),
  );
};

export const storeInboundBatch = async (
  em: EntityManager,
  media: MediaStore,
  connection: { id: number; companyId: number },
  inputs: FastInbound[],
): Promise<(FastStored | null)[]> => {
  const identities = inputs.map((input) => ({ number: digitsOnly(input.chat.number), lid: digitsOnly(input.chat.lid) }));
  const candidates = inputs.map(
    (input, i) => !input.chat.isGroup && !input.participant && (identities[i].number !== null || identities[i].lid !== null),
  );
  if (!candidates.some(Boolean)) return inputs.map(() => null);
  const found = await lookUp(
    em,
    connection,
    identities.filter((_, i) => candidates[i]),
  );

  // Each message's contact, or why the general path must take it.
  const contactIds = new Set<number>();
  const rows: Record<string, unknown>[] = [];
  const known = new Map<number, Record<string, unknown>>();
  inputs.forEach((input, idx) => {
    if (!candidates[idx]) return;
    const { number, lid } = identities[idx];
    const matches = found.filter((c) => (number !== null && c.number === number) || (lid !== null && c.lid === lid));
    const contact = matches[0];
    if (matches.length > 1) return;
    if (contact && contactNeedsChange(contact, number, lid, input.chat)) return;
    // A reply to a rating request belongs to the (closed) ticket that asked; the rating step answers it. A
    // reaction there is kept in that conversation but is no answer: the general path places it.
    const ratingReply = !!contact?.awaiting_id && !contact.active_id && !input.fromMe;
    if (ratingReply && input.mediaType === 'reactionMessage') return;
    // Two messages of one contact under different identities: the second waits for the general path.
    if (contact && contactIds.has(contact.id)) return;
    if (contact) {
      contactIds.add(contact.id);
      const { active_id: _active, awaiting_id: _awaiting, ...columns } = contact;
      known.set(idx, columns);
    }
    rows.push({
      idx,
      contact_id: contact?.id ?? null,
      name: (input.chat.name ?? '').trim() || number || lid,
      number,
      lid,
      pic: input.chat.profilePicUrl ?? '',
      wid: input.wid,
      body: input.body,
      from_me: input.fromMe,
      media_type: input.mediaType,
      media_url: input.mediaUrl,
      media_name: input.mediaName,
      media_status: input.mediaStatus ?? null,
      quoted: input.quotedId ?? null,
      raw: input.raw ?? null,
      at: input.createdAt.toISOString(),
      preview: previewOf({ body: input.body, mediaType: input.mediaType, mediaName: input.mediaName }),
      awaiting_id: ratingReply ? contact!.awaiting_id : null,
    });
  });
  if (rows.length === 0) return inputs.map(() => null);

  const written: {
    idx: number;
    message: Record<string, unknown>;
    ticket: Record<string, unknown>;
    new_contact: Record<string, unknown> | null;
    created: boolean;
    rating_reply: boolean;
    whatsapp: { id: number; name: string; status: string } | null;
    user: { id: number; name: string } | null;
    hold: Record<string, unknown> | null;
    queue: { id: number; name: string; color: string } | null;
    tags: { id: number; name: string; color: string }[];
  }[] = await executePrepared(
    em,
    'inbound-batch-write',
    ...named(
      `with
       input as (
         select * from jsonb_to_recordset(:rows::jsonb) as i(idx int, contact_id int, name text, number text, lid text, pic text,
           wid text, body text, from_me boolean, media_type text, media_url text, media_name text, media_status text, quoted text, raw jsonb,
           at timestamptz, preview text, awaiting_id int)),
       new_contact as (
         insert into contacts (company_id, name, number, lid, email, profile_pic_url, is_group, uuid, created_at, updated_at)
         select :co, i.name, i.number, i.lid, '', i.pic, false, gen_random_uuid(), now(), now() from input i where i.contact_id is null
         on conflict do nothing returning *),
       contact as (
         select i.idx, coalesce(i.contact_id, nc.id) as id, to_jsonb(nc) as created_row
           from input i
           left join new_contact nc on i.contact_id is null and nc.number is not distinct from i.number and nc.lid is not distinct from i.lid
          where i.contact_id is not null or nc.id is not null),
       -- The known contacts' ids as a parameter: joined to a CTE instead, the planner walked every active
       -- ticket of the connection. A new contact has no ticket yet.
       active as (
         select t.id, t.contact_id from tickets t
          where t.contact_id = any(:known::int[]) and t.whatsapp_id = :wa and t.status in ('open', 'pending')
          for update),
       new_ticket as (
         insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, is_group, last_message, last_message_at,
             last_from_me, unread_messages, rating_attempts, created_at, updated_at)
         select gen_random_uuid(), :co, 'pending', c.id, :wa, false, i.preview, i.at, i.from_me,
                case when i.from_me then 0 else 1 end, 0, now(), now()
           from contact c join input i on i.idx = c.idx
          where i.awaiting_id is null
            and not exists (select 1 from active a where a.contact_id = c.id)
            and not exists (select 1 from messages m where m.whatsapp_id = :wa and m.wid = i.wid)
         on conflict (contact_id, whatsapp_id) where status in ('open', 'pending') do nothing
         returning *),
       tracking as (
         insert into ticket_trackings (company_id, ticket_id, whatsapp_id, queued_at, rated, created_at)
         select :co, id, :wa, now(), false, now() from new_ticket),
       awaiting as (select t.* from tickets t where t.id in (select awaiting_id from input where awaiting_id is not null) and t.company_id = :co),
       ticket as (
         select id, contact_id from active union all select id, contact_id from new_ticket
         union all select id, contact_id from awaiting),
       msg as (
         insert into messages (company_id, ticket_id, wid, whatsapp_id, contact_id, user_id, body, from_me, read, ack, media_type,
             media_url, media_name, media_status, quoted_msg_id, is_deleted, is_edited, is_system, participant, raw, created_at, updated_at)
         select :co, t.id, i.wid, :wa, case when i.from_me then null else c.id end, null, i.body, i.from_me, i.from_me,
                case when i.from_me then 1 else 0 end, i.media_type, i.media_url, i.media_name, i.media_status,
                (select q.id from messages q where q.whatsapp_id = :wa and q.wid = i.quoted), false, false, false, null, i.raw, i.at, now()
           from input i join contact c on c.idx = i.idx join ticket t on t.contact_id = c.id
         on conflict (whatsapp_id, wid) do nothing
         returning *),
       updated as (
         update tickets set ${messageCounters('tickets', { fromMe: 'i.from_me', read: 'i.from_me', at: 'i.at', preview: 'i.preview' })}
         from msg m join input i on i.wid = m.wid
         where tickets.id = m.ticket_id and i.awaiting_id is null
         returning tickets.*),
       final_ticket as (select * from updated union all select * from new_ticket union all select * from awaiting)
       select i.idx, to_jsonb(m) - 'raw' as message, to_jsonb(ft) as ticket, c.created_row as new_contact,
              exists (select 1 from new_ticket nt where nt.id = ft.id) as created, i.awaiting_id is not null as rating_reply,
              (select json_build_object('id', w.id, 'name', w.name, 'status', w.status) from whatsapps w where w.id = :wa) as whatsapp,
              (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = ft.user_id) as "user",
              (select json_build_object('id', q.id, 'name', q.name, 'color', q.color) from queues q where q.id = ft.queue_id) as queue,
              (select to_jsonb(h) from conversation_holds h where h.ticket_id = ft.id) as hold,
              (select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color)), '[]'::json)
                 from ticket_tags tt join tags g on g.id = tt.tag_id where tt.ticket_id = ft.id) as tags
         from input i
         join contact c on c.idx = i.idx
         join msg m on m.wid = i.wid
         join final_ticket ft on ft.id = m.ticket_id`,
      {
        co: connection.companyId,
        wa: connection.id,
        rows: JSON.stringify(rows),
        known: intArray([...contactIds]),
      },
    ),
  );

  const results: (FastStored | null)[] = inputs.map(() => null);
  for (const row of written) {
    const contactRow = row.new_contact ?? known.get(row.idx);
    // A race lost (a new contact created meanwhile): the general path decides.
    if (!contactRow) continue;
    const message = camel<Message>(row.message);
    const ticket = camel<Ticket>(row.ticket);
    const contact = camel<Contact>(contactRow);
    results[row.idx] = {
      // A quoted message is presented by the general presenter (it needs the quoted sender too).
      message: messageView(media, message, { contact: message.contactId ? contact : undefined }, null),
      ticket: ticketView(ticket, {
        contact,
        user: row.user ?? undefined,
        queue: row.queue ?? undefined,
        whatsapp: row.whatsapp ?? undefined,
        hold: row.hold ? camel<ConversationHold>(row.hold) : null,
        tags: row.tags,
      }),
      contact,
      ticketId: ticket.id,
      messageId: message.id,
      quotedMsgId: message.quotedMsgId ?? null,
      isNewTicket: row.created,
      ratingReply: row.rating_reply,
    };
  }
  return results;
};
