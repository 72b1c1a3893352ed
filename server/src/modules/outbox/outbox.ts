import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';
import type { DomainEvents, EventBus } from '../../events/bus.js';
import type { MediaStore } from '../../media/storage.js';
import { executeBound, intArray, named } from '../../db/sql.js';
import { forCompany, requireTenant } from '../../db/tenant.js';
import { presentTicket } from '../tickets/index.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { digitsOnly, presentContact, upsertChannelContact } from '../contacts/index.js';
import { Contact } from '../contacts/contact.entity.js';
import type { MediaType } from '../messages/message.entity.js';
import { Message } from '../messages/message.entity.js';
import { messageCounters, presentMessage, presentMessages, previewOf, storeMessage } from '../messages/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import {
  OUTBOX_PRIORITY,
  OUTBOX_SOURCE_KINDS,
  OutboundMessage,
  type OutboxPresence,
  type OutboxPriority,
  type OutboxSourceKind,
} from './outbound-message.entity.js';

/**
 * Queueing a message to send: the conversation's copy and the outbox row are written together, in one
 * transaction, before anything goes to the network; the connection's sender takes it from there once the
 * transaction commits (see outbox.sender.ts). The agent sees the message at once, with a clock until it
 * leaves, as on WhatsApp.
 */
export interface OutboxDeps {
  media: MediaStore;
  events: EventBus;
}

/** A message id in the shape WhatsApp Web uses ('3EB0' + hex), chosen before sending. */
export const newMessageId = (): string => `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;

export interface QueuedMedia {
  /** Already stored in the company's media folder. */
  fileName: string;
  mediaName: string;
  mimetype: string;
  voiceNote?: boolean;
}

export interface QueueOptions {
  body: string;
  userId?: number | null;
  /** Sent by the platform (greeting, menu, rating request...) rather than typed by a person. */
  isSystem?: boolean;
  quotedMsgId?: number | null;
  media?: QueuedMedia;
  /** "typing…" or "recording audio…" shown for `ms` before the message. */
  presence?: { kind: OutboxPresence; ms: number };
  /** Not before this time (tonight's campaign). A row planned for later holds nothing of its chat meanwhile. */
  plannedAt?: Date;
  /** 'conversation' (the default) goes before 'bulk' on the connection, always. */
  priority?: OutboxPriority;
  /** Spaced by this policy of the connection (created, or updated to these settings). */
  pacing?: PacingPolicy;
  /** Who asked; by default the agent `userId` (unless isSystem), else the system. */
  source?: OutboxSource;
}

/** Who asked for a send, with the asking record's id: read back from the row, carried by `outbox.settled`. */
export interface OutboxSource {
  kind: OutboxSourceKind;
  id?: number | null;
}

/**
 * A pacing policy of a connection, applied by the outbox when it claims a paced row (never by planning
 * times): every paced row of the connection, whatever its policy, passes one gate, so two campaigns on
 * one number take turns and never double its rate, and an outage never releases a backlog back to back.
 * Any setting at 0 (or no window) is off.
 */
export interface PacingPolicy {
  /** The policy's name on the connection ('campaigns', 'api'...): callers using one name share its settings. */
  name: string;
  /** Least time between two paced sends (ms), spread ±30% at random. */
  gapMs: number;
  /** After this many paced sends, one gap of `longGapMs` (also spread) instead. */
  longGapEvery?: number;
  longGapMs?: number;
  /** Paced sends of the connection per day, in the company's time zone. */
  dailyCap?: number;
  /** Paced rows go only between these times ('HH:MM', the company's time zone; '22:00'-'06:00' wraps midnight). */
  window?: { from: string; to: string } | null;
}

const mediaTypeFor = (mimetype: string): MediaType => {
  const family = mimetype.split('/')[0];
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'application';
};

/** The order key of a chat: every message to one destination leaves in the order it was queued. */
const chatKeyOf = (contact: Pick<Contact, 'id' | 'number' | 'lid'>) => `c:${contact.id}`;

const minutesOf = (time: string): number => {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!match) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'pacing.window', message: 'HH:MM' }] });
  return Number(match[1]) * 60 + Number(match[2]);
};

const count = (value: number | undefined, path: string): number => {
  const n = value ?? 0;
  if (!Number.isInteger(n) || n < 0) throw new AppError('ERR_VALIDATION', { fields: [{ path: `pacing.${path}`, message: 'a whole number, 0 or more' }] });
  return n;
};

/** Creates the connection's policy of that name, or sets it to these settings; answers its id. */
export const applyPacing = async (em: EntityManager, whatsappId: number, policy: PacingPolicy): Promise<number> => {
  const name = policy.name.trim();
  if (!name || name.length > 60) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'pacing.name', message: '1 to 60 characters' }] });
  const window = policy.window ? { from: minutesOf(policy.window.from), to: minutesOf(policy.window.to) } : null;
  // Only a connection of the company: the statement writes nothing for another's.
  const [row] = await em.execute<{ id: number }[]>(
    ...named(
      `insert into outbox_pacing (company_id, whatsapp_id, name, gap_ms, long_gap_every, long_gap_ms, daily_cap, window_from, window_to, created_at, updated_at)
       select w.company_id, w.id, :name, :gap, :every, :long, :cap, :from, :to, now(), now() from whatsapps w
        where w.id = :whatsapp and w.company_id = :company
       on conflict (whatsapp_id, name) do update set gap_ms = excluded.gap_ms, long_gap_every = excluded.long_gap_every,
         long_gap_ms = excluded.long_gap_ms, daily_cap = excluded.daily_cap, window_from = excluded.window_from,
         window_to = excluded.window_to, updated_at = now()
       returning id`,
      {
        company: requireTenant(em),
        whatsapp: whatsappId,
        name,
        gap: count(policy.gapMs, 'gapMs'),
        every: count(policy.longGapEvery, 'longGapEvery'),
        long: count(policy.longGapMs, 'longGapMs'),
        cap: count(policy.dailyCap, 'dailyCap'),
        from: window?.from ?? null,
        to: window?.to ?? null,
      },
    ),
  );
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  // The connection's gate exists before its first paced row: the sender's claims lock it to pass one by one.
  await em.execute(
    `insert into outbox_pacing_state (whatsapp_id, company_id, next_at, streak, day_count) values (?, ?, now(), 0, 0) on conflict do nothing`,
    [whatsappId, requireTenant(em)],
  );
  return row.id;
};

const sourceOf = (options: Pick<QueueOptions, 'source' | 'userId' | 'isSystem'>): { kind: OutboxSourceKind; id: number | null } => {
  if (options.source) {
    if (!OUTBOX_SOURCE_KINDS.includes(options.source.kind)) throw new Error(`unknown outbox source ${options.source.kind}`);
    return { kind: options.source.kind, id: options.source.id ?? null };
  }
  return options.userId && !options.isSystem ? { kind: 'agent', id: options.userId } : { kind: 'system', id: null };
};

/** Where a queued message goes: a ticket's conversation, or a contact's history without a ticket. */
interface Destination {
  companyId: number;
  whatsappId: number;
  contact: Contact;
  ticket: Ticket | null;
}

/** The conversation's copy and the outbox row, in one transaction (the caller's, when it has one). */
const writeQueued = async (em: EntityManager, dest: Destination, options: QueueOptions) => {
  const { ticket, contact, whatsappId } = dest;
  const quoted = options.quotedMsgId ? await em.findOne(Message, options.quotedMsgId, { fields: ['id', 'wid', 'fromMe'] }) : null;
  const wid = newMessageId();
  const mediaType: MediaType = options.media ? mediaTypeFor(options.media.mimetype) : 'chat';
  const at = new Date();
  const source = sourceOf(options);
  const message = await em.transactional(async (tx) => {
    const pacingId = options.pacing ? await applyPacing(tx, whatsappId, options.pacing) : null;
    const { message } = await storeMessage(tx, {
      ticketId: ticket?.id ?? null,
      chatContactId: ticket ? null : contact.id,
      wid,
      whatsappId,
      contactId: null,
      userId: options.userId ?? null,
      body: options.body,
      fromMe: true,
      read: true,
      ack: 0,
      mediaType,
      mediaUrl: options.media?.fileName ?? null,
      mediaName: options.media?.mediaName ?? null,
      quotedMsgId: quoted?.wid ? quoted.id : null,
      isSystem: options.isSystem ?? false,
      createdAt: at,
    });
    if (ticket) {
      // The list's preview moves now: the agent sees the message where it will be.
      await tx.execute(
        ...named(`update tickets set ${messageCounters('tickets', { fromMe: 'true', read: ':read::boolean', at: ':at::timestamptz', preview: ':preview' })} where id = :id`, {
          read: source.kind === 'agent',
          at,
          preview: previewOf(message),
          id: ticket.id,
        }),
      );
    }
    tx.create(OutboundMessage, {
      companyId: dest.companyId,
      whatsappId,
      ticketId: ticket?.id ?? null,
      messageId: message.id,
      contactId: contact.id,
      toNumber: digitsOnly(contact.number),
      toLid: digitsOnly(contact.lid),
      isGroup: contact.isGroup,
      chatKey: chatKeyOf(contact),
      wid,
      body: options.body,
      mediaUrl: options.media?.fileName ?? null,
      mediaName: options.media?.mediaName ?? null,
      mimetype: options.media?.mimetype ?? null,
      voiceNote: options.media?.voiceNote ?? false,
      quotedWid: quoted?.wid ?? null,
      quotedFromMe: quoted?.fromMe ?? false,
      presence: options.presence && options.presence.ms > 0 ? options.presence.kind : null,
      presenceMs: options.presence ? Math.max(0, Math.round(options.presence.ms)) : 0,
      plannedAt: options.plannedAt ?? at,
      priority: OUTBOX_PRIORITY[options.priority ?? 'conversation'],
      pacingId,
      sourceKind: source.kind,
      sourceId: source.id,
    });
    await tx.flush();
    return message;
  });
  return { message, at, read: source.kind === 'agent' };
};

/**
 * Queues a message on a ticket's conversation. Returns the message as the API shows it (ack 0: waiting).
 * Inside the caller's transaction when there is one: then nothing is sent unless it commits.
 */
export const queueOnTicket = async (deps: OutboxDeps, em: EntityManager, ticket: Ticket, options: QueueOptions) => {
  if (!ticket.whatsappId) throw new AppError('ERR_NO_WAPP_FOUND');
  const contact = await em.findOneOrFail(Contact, ticket.contactId);
  const { message, at, read } = await writeQueued(em, { companyId: ticket.companyId, whatsappId: ticket.whatsappId, contact, ticket }, options);

  // The caller's entity follows what was written (presentTicket flushes it): only an agent's reply reads
  // the conversation; the automation's messages leave the customer's unread count alone.
  ticket.lastMessage = previewOf(message);
  ticket.lastMessageAt = at;
  ticket.lastFromMe = true;
  if (read) ticket.unreadMessages = 0;

  const presented = await presentMessage(em, deps.media, message);
  deps.events.emit('message.created', {
    companyId: ticket.companyId,
    message: presented,
    ticket: await presentTicket(em, ticket),
    contact: presentContact(contact),
    isNewTicket: false,
  });
  deps.events.emit('outbox.queued', { companyId: ticket.companyId, whatsappId: ticket.whatsappId });
  return presented;
};

/**
 * Queues several messages on one ticket's conversation at once, in this order (a flow's nodes answering one
 * customer message): the copies, the ticket's counters and preview, and the outbox rows in one statement.
 * Same rules as queueOnTicket called once per message: inside the caller's transaction when there is one,
 * nothing leaves before the commit, and the chat's rows leave in the order given (their ids grow in that
 * order). What the clients hear is read after the commit (`announceQueued`), not in the caller's
 * transaction: it holds the ticket's row locked, and a flow's answer is on the customer's critical path.
 */
export const queueManyOnTicket = async (deps: OutboxDeps, em: EntityManager, ticket: Ticket, items: QueueOptions[]): Promise<Message[]> => {
  if (items.length === 0) return [];
  if (!ticket.whatsappId) throw new AppError('ERR_NO_WAPP_FOUND');
  const whatsappId = ticket.whatsappId;
  const contact = await em.findOneOrFail(Contact, ticket.contactId);
  const at = new Date();
  const sources = items.map(sourceOf);
  const messages = await writeQueuedMany(em, ticket, whatsappId, contact, items, at, sources);
  deps.events.emit('outbox.queuedOnTicket', {
    companyId: ticket.companyId,
    whatsappId,
    ticketId: ticket.id,
    messageIds: messages.map((m) => m.id),
    contact: presentContact(contact),
  });
  return messages;
};

/**
 * After queueManyOnTicket's commit: the messages and their ticket as the API shows them, announced as
 * queueOnTicket announces one (message.created each, in order), then the sender woken, so that a client
 * hears of a message before any receipt of it.
 */
export const announceQueued = async (
  deps: OutboxDeps & { systemEm: () => EntityManager },
  { companyId, whatsappId, ticketId, messageIds, contact }: DomainEvents['outbox.queuedOnTicket'],
): Promise<void> => {
  const em = forCompany(deps.systemEm(), companyId);
  try {
    const presented = await presentMessages(em, deps.media, messageIds);
    const ticket = await presentTicket(em, { id: ticketId });
    for (const message of presented) deps.events.emit('message.created', { companyId, message, ticket, contact, isNewTicket: false });
  } finally {
    deps.events.emit('outbox.queued', { companyId, whatsappId });
  }
};

/**
 * queueManyOnTicket's writes: the copies, the outbox rows and the ticket's counters in one statement, atomic
 * by itself, so without a transaction (nor a savepoint in the caller's) of its own.
 */
const writeQueuedMany = async (
  em: EntityManager,
  ticket: Ticket,
  whatsappId: number,
  contact: Contact,
  items: QueueOptions[],
  at: Date,
  sources: { kind: OutboxSourceKind; id: number | null }[],
): Promise<Message[]> => {
  const input: Record<string, unknown>[] = [];
  for (const [ord, options] of items.entries()) {
    // Rare in a batch (a quote, a paced send): read one by one, as queueOnTicket does.
    const quoted = options.quotedMsgId ? await em.findOne(Message, options.quotedMsgId, { fields: ['id', 'wid', 'fromMe'] }) : null;
    input.push({
      ord,
      wid: newMessageId(),
      user_id: options.userId ?? null,
      body: options.body,
      media_type: options.media ? mediaTypeFor(options.media.mimetype) : 'chat',
      media_url: options.media?.fileName ?? null,
      media_name: options.media?.mediaName ?? null,
      mimetype: options.media?.mimetype ?? null,
      voice_note: options.media?.voiceNote ?? false,
      quoted_msg_id: quoted?.wid ? quoted.id : null,
      quoted_wid: quoted?.wid ?? null,
      quoted_from_me: quoted?.fromMe ?? false,
      is_system: options.isSystem ?? false,
      presence: options.presence && options.presence.ms > 0 ? options.presence.kind : null,
      presence_ms: options.presence ? Math.max(0, Math.round(options.presence.ms)) : 0,
      planned_at: (options.plannedAt ?? at).toISOString(),
      priority: OUTBOX_PRIORITY[options.priority ?? 'conversation'],
      pacing_id: options.pacing ? await applyPacing(em, whatsappId, options.pacing) : null,
      source_kind: sources[ord].kind,
      source_id: sources[ord].id,
    });
  }
  // Data-modifying CTEs all run, against one snapshot: the copies, then the rows pointing at them (the
  // foreign keys are checked at the end of the statement), and the ticket once, for the newest copy.
  const last = input[input.length - 1];
  const rows = await em.execute<Record<string, unknown>[]>(
    ...named(
      `with i as (
         select * from jsonb_to_recordset(:rows::jsonb) as i(ord int, wid text, user_id int, body text, media_type text, media_url text,
           media_name text, mimetype text, voice_note boolean, quoted_msg_id int, quoted_wid text, quoted_from_me boolean, is_system boolean,
           presence text, presence_ms int, planned_at timestamptz, priority int, pacing_id int, source_kind text, source_id int)
       ),
       m as (
         insert into messages (company_id, ticket_id, chat_contact_id, wid, whatsapp_id, contact_id, user_id, body, from_me, read, ack,
             media_type, media_url, media_name, quoted_msg_id, is_deleted, is_edited, is_system, created_at, updated_at)
         select :company, :ticket, null, i.wid, :whatsapp, null, i.user_id, i.body, true, true, 0,
                i.media_type, i.media_url, i.media_name, i.quoted_msg_id, false, false, i.is_system, :at::timestamptz, now()
           from i order by i.ord
         returning *
       ),
       t as (
         update tickets set ${messageCounters('tickets', { fromMe: 'true', read: ':read::boolean', at: ':at::timestamptz', preview: ':preview' })}
          where id = :ticket
         returning *
       ),
       o as (
         insert into outbound_messages (company_id, whatsapp_id, ticket_id, message_id, contact_id, to_number, to_lid, is_group, chat_key, wid,
             body, media_url, media_name, mimetype, voice_note, quoted_wid, quoted_from_me, presence, presence_ms, presence_sent, status, attempts,
             planned_at, priority, bulk_seq, pacing_id, source_kind, source_id, created_at, updated_at)
         select :company, :whatsapp, :ticket, m.id, :contact, :toNumber, :toLid, :isGroup, :chatKey, i.wid,
                i.body, i.media_url, i.media_name, i.mimetype, i.voice_note, i.quoted_wid, i.quoted_from_me, i.presence, i.presence_ms, false, 'pending', 0,
                i.planned_at, i.priority, 0, i.pacing_id, i.source_kind, i.source_id, :at::timestamptz, :at::timestamptz
           from i join m on m.wid = i.wid
          order by i.ord
         returning id
       )
       select m.*, (select to_jsonb(t) from t) as ticket_row, (select count(*) from o)::int as outbox_rows from m order by m.id`,
      {
        rows: JSON.stringify(input),
        company: ticket.companyId,
        ticket: ticket.id,
        whatsapp: whatsappId,
        contact: contact.id,
        toNumber: digitsOnly(contact.number),
        toLid: digitsOnly(contact.lid),
        isGroup: contact.isGroup,
        chatKey: chatKeyOf(contact),
        at,
        // Only an agent's reply reads the conversation.
        read: sources.some((s) => s.kind === 'agent'),
        preview: previewOf({ body: last.body as string, mediaType: last.media_type as MediaType, mediaName: last.media_name as string | null }),
      },
    ),
  );
  if (rows.length !== items.length || rows[0]?.outbox_rows !== items.length) throw new Error('queueManyOnTicket: not every message was written');
  // The caller's ticket takes the row as written, without another update at its next flush.
  if (rows[0].ticket_row) em.map(Ticket, rows[0].ticket_row as Record<string, unknown>);
  return rows.map(({ ticket_row: _t, outbox_rows: _o, ...row }) => em.map(Message, row));
};

/**
 * Queues a message to a number, without a ticket (campaigns, the messages API): the contact is found or
 * created, the message is kept in its history on that connection, and no ticket opens — one opens when the
 * customer answers, with this message in its history. `em` is bound to the company.
 */
export const queueToNumber = async (
  deps: OutboxDeps,
  em: EntityManager,
  input: { whatsappId: number; number: string; name?: string } & QueueOptions,
) => {
  const { whatsappId, number, name, ...options } = input;
  if (!(await em.findOne(Whatsapp, whatsappId, { fields: ['id'] }))) throw new AppError('ERR_NO_WAPP_FOUND');
  if (!digitsOnly(number)) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  const contact = await upsertChannelContact(em, { number, lid: null, name });
  const { message } = await writeQueued(em, { companyId: requireTenant(em), whatsappId, contact, ticket: null }, options);
  deps.events.emit('outbox.queued', { companyId: requireTenant(em), whatsappId });
  return { message, contact };
};

/** One row of a bulk enqueue (a campaign's contact, a bulk API call's number). */
export interface BulkRow {
  number: string;
  /** The contact's name when it is new (or still a placeholder). */
  name?: string;
  body: string;
  /** Already stored in the company's media folder (one stored file may serve every row). */
  media?: QueuedMedia;
  /** "typing…" or "recording audio…" shown for `ms` before the message (a campaign's text). */
  presence?: { kind: OutboxPresence; ms: number };
  /** The asking record, e.g. `{ kind: 'campaign', id: <shipping row id> }`. */
  source?: OutboxSource;
  plannedAt?: Date;
  /** Its place in its run (default: its index in `rows`): two runs on one connection alternate by it. */
  seq?: number;
  /** Its message id when the asker chose it already (a campaign's row holds it from its start); default a new one. */
  wid?: string;
}

export interface BulkInput {
  whatsappId: number;
  rows: BulkRow[];
  /** The connection's policy these rows go by; without one they go as fast as the connection sends. */
  pacing?: PacingPolicy;
  /** Default 'bulk': a conversation's rows go first. */
  priority?: OutboxPriority;
  /** Not before this time, for every row without its own. */
  plannedAt?: Date;
}

export interface BulkQueued {
  /** The row's index in `rows`. */
  index: number;
  outboxId: number;
  wid: string;
  /** The number's contact when it existed already; else it is created when the row is sent (or fails). */
  contactId: number | null;
}

/** Rows written per statement. */
const BULK_CHUNK = 2000;

interface BulkWrite {
  companyId: number;
  whatsappId: number;
  priority: number;
  pacingId: number | null;
  plannedAt: Date | null;
}

/**
 * One statement per chunk writes its outbox rows, and nothing else: the contact of a number not known yet
 * and each row's copy in its contact's history are written when the row settles (sent or failed; see
 * outbox.sender.ts), a few rows at a time, instead of thousands of contacts and messages (their foreign
 * keys and trigram indexes) before the first send. A number's contact that exists already is its rows'
 * chat (their order with that contact's conversation); a new number's rows are its own chat ('n:' and the
 * number) until then.
 */
const writeBulkChunk = async (
  em: EntityManager,
  write: BulkWrite,
  chunk: { index: number; number: string; row: BulkRow }[],
): Promise<BulkQueued[]> => {
  const input = chunk.map(({ index, number, row }) => {
    const source = sourceOf({ source: row.source });
    return {
      ord: index,
      number,
      name: row.name?.trim().slice(0, 100) || null,
      body: row.body,
      wid: row.wid ?? newMessageId(),
      media_url: row.media?.fileName ?? null,
      media_name: row.media?.mediaName ?? null,
      mimetype: row.media?.mimetype ?? null,
      voice_note: row.media?.voiceNote ?? false,
      presence: row.presence && row.presence.ms > 0 ? row.presence.kind : null,
      presence_ms: row.presence ? Math.max(0, Math.round(row.presence.ms)) : 0,
      source_kind: source.kind,
      source_id: source.id,
      seq: row.seq ?? index,
      planned_at: (row.plannedAt ?? write.plannedAt)?.toISOString() ?? null,
    };
  });
  const rows = await executeBound<{ id: number; wid: string; contact_id: number | null }>(
    em,
    ...named(
      `with input as (
         select * from jsonb_to_recordset(:rows::jsonb) as i(ord int, number text, name text, body text, wid text,
           media_url text, media_name text, mimetype text, voice_note boolean, presence text, presence_ms int, source_kind text, source_id int, seq int, planned_at timestamptz)
       ),
       -- The company's existing contacts among these numbers, looked up by number (never a scan of them all).
       known as (
         select c.id, c.number, c.lid from contacts c
          where c.company_id = :company and c.number = any(array(select distinct number from input))
       )
       insert into outbound_messages (company_id, whatsapp_id, ticket_id, message_id, contact_id, to_number, to_name, to_lid, is_group, chat_key, wid,
           body, media_url, media_name, mimetype, voice_note, quoted_from_me, presence, presence_ms, presence_sent, status, attempts, planned_at,
           priority, bulk_seq, pacing_id, source_kind, source_id, created_at, updated_at)
       select :company, :whatsapp, null, null, k.id, i.number, i.name, k.lid, false, coalesce('c:' || k.id, 'n:' || i.number), i.wid,
              i.body, i.media_url, i.media_name, i.mimetype, i.voice_note, false, i.presence, i.presence_ms, false, 'pending', 0, coalesce(i.planned_at, now()),
              :priority, i.seq, :pacing, i.source_kind, i.source_id, now(), now()
         from input i left join known k on k.number = i.number
        order by i.ord
       returning id, wid, contact_id`,
      { rows: JSON.stringify(input), company: write.companyId, whatsapp: write.whatsappId, priority: write.priority, pacing: write.pacingId },
    ),
  );
  const byWid = new Map(rows.map((r) => [r.wid, r]));
  return input.map((item) => {
    const row = byWid.get(item.wid)!;
    return { index: item.ord, outboxId: row.id, wid: row.wid, contactId: row.contact_id };
  });
};

/**
 * Queues many messages to numbers at once (a campaign, a bulk API call), without tickets: one statement
 * per chunk of 2,000 rows writes the outbox rows, all in one transaction (the caller's when it has one),
 * then one wake-up of the connection's sender. Each row's contact is found or created, and its message kept
 * in the contact's history on that connection, when the row is sent or fails (queueToNumber writes them at
 * once). Rows whose number has no digits are left out and listed in `invalid` (their indexes). `em` is
 * bound to the company.
 */
export const queueBulk = async (deps: OutboxDeps, em: EntityManager, input: BulkInput): Promise<{ queued: BulkQueued[]; invalid: number[] }> => {
  const companyId = requireTenant(em);
  if (!(await em.findOne(Whatsapp, input.whatsappId, { fields: ['id'] }))) throw new AppError('ERR_NO_WAPP_FOUND');
  const invalid: number[] = [];
  const valid: { index: number; number: string; row: BulkRow }[] = [];
  input.rows.forEach((row, index) => {
    const number = digitsOnly(row.number);
    if (number) valid.push({ index, number, row });
    else invalid.push(index);
  });
  const queued: BulkQueued[] = [];
  await em.transactional(async (tx) => {
    const write: BulkWrite = {
      companyId,
      whatsappId: input.whatsappId,
      priority: OUTBOX_PRIORITY[input.priority ?? 'bulk'],
      pacingId: input.pacing ? await applyPacing(tx, input.whatsappId, input.pacing) : null,
      plannedAt: input.plannedAt ?? null,
    };
    for (let i = 0; i < valid.length; i += BULK_CHUNK) queued.push(...(await writeBulkChunk(tx, write, valid.slice(i, i + BULK_CHUNK))));
  });
  if (queued.length > 0) deps.events.emit('outbox.queued', { companyId, whatsappId: input.whatsappId });
  queued.sort((a, b) => a.index - b.index);
  return { queued, invalid };
};

/**
 * A settled bulk row's contact and its copy in the contact's history (see writeBulkChunk), for the rows
 * `ids` still without a copy: the contact found by number or created (a placeholder name replaced by the
 * list's, as upsertChannelContact does), the message written (waiting: the settle moves it on with its row),
 * and the row linked to both. Answers the ids still without a copy: a contact another transaction created
 * while the statement ran is not in its snapshot, so the caller runs it again for those.
 */
export const writeBulkCopies = async (em: EntityManager, ids: number[]): Promise<number[]> => {
  if (ids.length === 0) return [];
  const rows = await em.execute<{ id: number }[]>(
    `with l as (
       select o.id, o.company_id, o.whatsapp_id, o.to_number as number, coalesce(btrim(o.to_name), '') as name, o.wid, o.body,
              o.media_url, o.media_name, o.mimetype
         from outbound_messages o
        where o.id = any(?::int[]) and o.message_id is null and o.ticket_id is null and o.to_number is not null
     ),
     wanted as (select distinct on (company_id, number) company_id, number, name from l order by company_id, number, id),
     created as (
       insert into contacts (company_id, name, number, lid, email, profile_pic_url, is_group, uuid, created_at, updated_at)
       select w.company_id, coalesce(nullif(w.name, ''), w.number), w.number, null, '', '', false, gen_random_uuid(), now(), now() from wanted w
       on conflict (company_id, number) where number is not null do nothing
       returning id, company_id, number
     ),
     existing as (
       select c.id, c.company_id, c.number, c.lid, c.name from contacts c join wanted w on c.company_id = w.company_id and c.number = w.number
     ),
     renamed as (
       update contacts c set name = w.name, updated_at = now() from existing x join wanted w on w.company_id = x.company_id and w.number = x.number
        where c.id = x.id and w.name <> '' and x.name <> w.name and (btrim(x.name) = '' or x.name = x.number or x.name = x.lid)
       returning c.id
     ),
     found as (
       select id, company_id, number from created
       union all
       select id, company_id, number from existing
     ),
     stored as (
       insert into messages (company_id, ticket_id, chat_contact_id, wid, whatsapp_id, contact_id, user_id, body, from_me, read, ack,
           media_type, media_url, media_name, is_deleted, is_edited, is_system, created_at, updated_at)
       select l.company_id, null, f.id, l.wid, l.whatsapp_id, null, null, l.body, true, true, 0,
              case when l.mimetype is null then 'chat'
                   when split_part(l.mimetype, '/', 1) in ('image', 'audio', 'video') then split_part(l.mimetype, '/', 1)
                   else 'application' end,
              l.media_url, l.media_name, false, false, false, now(), now()
         from l join found f on f.company_id = l.company_id and f.number = l.number
        order by l.id
       returning id, wid, whatsapp_id, chat_contact_id
     ),
     linked as (
       update outbound_messages o set message_id = s.id, contact_id = s.chat_contact_id
         from stored s where o.whatsapp_id = s.whatsapp_id and o.wid = s.wid
       returning o.id
     )
     select l.id from l where l.id not in (select id from linked)`,
    [intArray(ids)],
  );
  return rows.map((r) => r.id);
};

/** How a row's outcome is announced: `outbox.settled`, with the row's correlation. */
export type OutboxOutcome = 'sent' | 'failed' | 'delivered' | 'read';

/** The columns an outcome's announcement reads (RETURNING of the statement that records it). */
export const OUTCOME_COLUMNS = 'id, company_id, whatsapp_id, message_id, contact_id, wid, source_kind, source_id, last_error';

export interface OutcomeRow {
  id: number;
  company_id: number;
  whatsapp_id: number;
  message_id: number | null;
  contact_id: number | null;
  wid: string;
  source_kind: OutboxSourceKind;
  source_id: number | null;
  last_error: string | null;
}

export const announceOutcome = (events: EventBus, row: OutcomeRow, status: OutboxOutcome): void => {
  events.emit('outbox.settled', {
    companyId: row.company_id,
    whatsappId: row.whatsapp_id,
    outboxId: row.id,
    messageId: row.message_id,
    contactId: row.contact_id,
    wid: row.wid,
    status,
    error: status === 'failed' ? row.last_error : null,
    source: { kind: row.source_kind, id: row.source_id },
  });
};

/**
 * Sends a failed message again (the agent's resend action): the same message id, so a copy that did reach
 * the phone is not shown twice. Answers false when the message has no failed send.
 */
export const requeueFailed = async (deps: OutboxDeps, em: EntityManager, message: Message): Promise<boolean> => {
  const rows = await em.execute<{ whatsapp_id: number; company_id: number }[]>(
    `update outbound_messages set status = 'pending', attempts = 0, planned_at = now(), last_error = null, failed_at = null, updated_at = now()
     where message_id = ? and status = 'failed' returning whatsapp_id, company_id`,
    [message.id],
  );
  if (rows.length === 0) return false;
  await em.nativeUpdate(Message, { id: message.id }, { sendError: null });
  message.sendError = null;
  deps.events.emit('outbox.queued', { companyId: rows[0].company_id, whatsappId: rows[0].whatsapp_id });
  return true;
};

/** Withdraws a message not sent yet (deleted before it left): true when it was still waiting. */
export const cancelQueued = async (deps: Pick<OutboxDeps, 'events'>, em: EntityManager, messageId: number): Promise<boolean> => {
  const rows = await em.execute<(OutcomeRow & { was: string })[]>(
    `update outbound_messages o set status = 'failed', last_error = 'ERR_CANCELLED', failed_at = coalesce(o.failed_at, now()), updated_at = now()
       from (select id, status as was from outbound_messages where message_id = ? and status in ('pending', 'failed') for update) old
      where o.id = old.id
      returning ${OUTCOME_COLUMNS.split(', ').map((c) => `o.${c}`).join(', ')}, old.was`,
    [messageId],
  );
  // A row that had failed already was announced then.
  for (const row of rows) if (row.was === 'pending') announceOutcome(deps.events, row, 'failed');
  return rows.length > 0;
};

/**
 * Takes queued messages back before they leave (a campaign paused): each row still pending goes, with its
 * copy in the conversation, which nobody was shown as sent. A row the sender has taken (sending) stays and
 * settles as usual; the row lock makes it one or the other. Answers the ids withdrawn. Inside the caller's
 * transaction, so the pause and the withdrawal commit together.
 */
export const withdrawQueued = async (em: EntityManager, outboxIds: number[]): Promise<number[]> => {
  if (outboxIds.length === 0) return [];
  const rows = await em.execute<{ id: number }[]>(
    `with gone as (
       delete from outbound_messages where id = any(?::int[]) and company_id = ? and status = 'pending' returning id, message_id
     ),
     copies as (delete from messages m using gone where m.id = gone.message_id and m.ticket_id is null returning m.id)
     select id from gone`,
    [intArray(outboxIds), requireTenant(em)],
  );
  return rows.map((r) => r.id);
};

/** Records the channel's echo of a message we sent; false when the id is not one of ours. */
export const markEchoed = async (em: EntityManager, whatsappId: number, wid: string): Promise<boolean> => {
  const rows = await em.execute<{ id: number }[]>(
    `update outbound_messages set echoed_at = coalesce(echoed_at, now()) where whatsapp_id = ? and wid = ? returning id`,
    [whatsappId, wid],
  );
  return rows.length > 0;
};

/**
 * The network answered one of our sent messages with an error receipt: its outbox row becomes failed with
 * that reason (so the agent's resend sends it again, with the same id), and that outcome is announced. A
 * row still in `sending` is failed too; the sender then finds it settled. Answers whether a row of ours was there.
 */
export const failAfterSend = async (
  deps: Pick<OutboxDeps, 'events'>,
  em: EntityManager,
  whatsappId: number,
  wid: string,
  code: string,
): Promise<boolean> => {
  const rows = await em.execute<OutcomeRow[]>(
    `update outbound_messages set status = 'failed', last_error = ?, failed_at = now(), updated_at = now()
     where whatsapp_id = ? and wid = ? and status in ('sending', 'sent') returning ${OUTCOME_COLUMNS}`,
    [code, whatsappId, wid],
  );
  for (const row of rows) announceOutcome(deps.events, row, 'failed');
  return rows.length > 0;
};

/**
 * A receipt of one of our messages (ack 2: delivered to the phone, 3 and more: read or played): its time
 * is recorded on the outbox row once and the outcome announced, whether or not the message has a ticket.
 */
export const recordReceipt = async (deps: Pick<OutboxDeps, 'events'>, em: EntityManager, whatsappId: number, wid: string, ack: number): Promise<void> => {
  if (ack < 2) return;
  const read = ack >= 3;
  const rows = await em.execute<OutcomeRow[]>(
    `update outbound_messages set delivered_at = coalesce(delivered_at, now()),
            read_at = case when ? then coalesce(read_at, now()) else read_at end, updated_at = now()
      where whatsapp_id = ? and wid = ? and (delivered_at is null or (? and read_at is null))
      returning ${OUTCOME_COLUMNS}`,
    [read, whatsappId, wid, read],
  );
  for (const row of rows) announceOutcome(deps.events, row, read ? 'read' : 'delivered');
};
