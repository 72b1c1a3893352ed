import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { MediaStore } from '../../media/storage.js';
import { named } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { presentTicket } from '../tickets/index.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { digitsOnly, presentContact, upsertChannelContact } from '../contacts/index.js';
import { Contact } from '../contacts/contact.entity.js';
import type { MediaType } from '../messages/message.entity.js';
import { Message } from '../messages/message.entity.js';
import { messageCounters, presentMessage, previewOf, storeMessage } from '../messages/index.js';
import type { Ticket } from '../tickets/ticket.entity.js';
import { OutboundMessage, type OutboxPresence } from './outbound-message.entity.js';

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
  /** Not before this time (pacing). */
  plannedAt?: Date;
}

const mediaTypeFor = (mimetype: string): MediaType => {
  const family = mimetype.split('/')[0];
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'application';
};

/** The order key of a chat: every message to one destination leaves in the order it was queued. */
const chatKeyOf = (contact: Pick<Contact, 'id' | 'number' | 'lid'>) => `c:${contact.id}`;

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
  const message = await em.transactional(async (tx) => {
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
        ...named(`update tickets set ${messageCounters('tickets', { fromMe: 'true', at: ':at::timestamptz', preview: ':preview' })} where id = :id`, {
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
    });
    await tx.flush();
    return message;
  });
  return { message, at };
};

/**
 * Queues a message on a ticket's conversation. Returns the message as the API shows it (ack 0: waiting).
 * Inside the caller's transaction when there is one: then nothing is sent unless it commits.
 */
export const queueOnTicket = async (deps: OutboxDeps, em: EntityManager, ticket: Ticket, options: QueueOptions) => {
  if (!ticket.whatsappId) throw new AppError('ERR_NO_WAPP_FOUND');
  const contact = await em.findOneOrFail(Contact, ticket.contactId);
  const { message, at } = await writeQueued(em, { companyId: ticket.companyId, whatsappId: ticket.whatsappId, contact, ticket }, options);

  // The caller's entity follows what was written.
  ticket.lastMessage = previewOf(message);
  ticket.lastMessageAt = at;
  ticket.lastFromMe = true;
  ticket.unreadMessages = 0;

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

/**
 * Sends a failed message again (the agent's resend action): the same message id, so a copy that did reach
 * the phone is not shown twice. Answers false when the message has no failed send.
 */
export const requeueFailed = async (deps: OutboxDeps, em: EntityManager, message: Message): Promise<boolean> => {
  const rows = await em.execute<{ whatsapp_id: number; company_id: number }[]>(
    `update outbound_messages set status = 'pending', attempts = 0, planned_at = now(), last_error = null, updated_at = now()
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
export const cancelQueued = async (em: EntityManager, messageId: number): Promise<boolean> => {
  const rows = await em.execute<{ id: number }[]>(
    `update outbound_messages set status = 'failed', last_error = 'ERR_CANCELLED', updated_at = now()
     where message_id = ? and status in ('pending', 'failed') returning id`,
    [messageId],
  );
  return rows.length > 0;
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
 * that reason (so the agent's resend sends it again, with the same id). A row still in `sending` is failed
 * too; the sender then finds it settled. Answers whether a row of ours was there.
 */
export const failAfterSend = async (em: EntityManager, whatsappId: number, wid: string, code: string): Promise<boolean> => {
  const rows = await em.execute<{ id: number }[]>(
    `update outbound_messages set status = 'failed', last_error = ?, updated_at = now()
     where whatsapp_id = ? and wid = ? and status in ('sending', 'sent') returning id`,
    [code, whatsappId, wid],
  );
  return rows.length > 0;
};
