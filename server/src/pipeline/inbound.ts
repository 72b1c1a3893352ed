import type { EntityManager } from '@mikro-orm/postgresql';
import type { InboundMessage, MessageUpdate } from '../channels/types.js';
import { forCompany } from '../db/tenant.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { MediaStore } from '../media/storage.js';
import { upsertChannelContact } from '../modules/contacts/contact-identity.js';
import type { Contact } from '../modules/contacts/contact.entity.js';
import { Message, type MediaType } from '../modules/messages/message.entity.js';
import { presentMessages } from '../modules/messages/message.presenter.js';
import { previewOf, storeMessage } from '../modules/messages/message-store.js';
import type { ConversationDeps } from '../modules/messages/outbound.js';
import { getSettingValue } from '../modules/settings/settings.service.js';
import { findTicketAwaitingRating, handleRatingReply } from '../modules/tickets/ticket-rating.js';
import { Ticket } from '../modules/tickets/ticket.entity.js';
import { presentContact, presentTicket } from '../modules/tickets/ticket.presenter.js';
import { findActiveTicket, findOrCreateActiveTicket, placementOf } from '../modules/tickets/tickets.service.js';
import { storeInboundFast } from './inbound-fast.js';
import { InboundQueueItem } from './inbound-queue.entity.js';

/**
 * Inbound messages, as a script: persist what arrived → find or create the contact → find or create the
 * ticket → store the message → update the ticket → announce it. Side effects (realtime, automation)
 * hang off the announced events. Every step is safe to run twice for the same message.
 */
export interface PipelineDeps extends ConversationDeps {
  systemEm: () => EntityManager;
  logger: Logger;
  media: MediaStore;
  events: EventBus;
  /** Automation (the queue chatbot) that runs after a customer's message is stored and announced. */
  automation?: InboundAutomation;
}

/** What automation learns of a stored inbound message; it loads anything else it needs itself. */
export interface InboundFacts {
  companyId: number;
  whatsappId: number;
  ticketId: number;
  contactId: number;
  messageId: number;
  body: string;
  fromMe: boolean;
  isGroup: boolean;
  isNewTicket: boolean;
}

export interface InboundAutomation {
  onInbound(facts: InboundFacts): Promise<void>;
}

export interface ConnectionKey {
  id: number;
  companyId: number;
}

/** What is kept in the inbound queue: the message without its bytes (already stored as a file). */
interface QueuedPayload extends Omit<InboundMessage, 'media' | 'timestamp'> {
  timestamp: string;
  storedMedia?: { fileName: string; mediaName: string; mimetype: string };
}

export type InboundOutcome = 'stored' | 'duplicate' | 'ignored' | 'rating';

/** Entry point for a channel's message event: persist first, then process. */
export const acceptInbound = async (deps: PipelineDeps, connection: ConnectionKey, message: InboundMessage): Promise<InboundOutcome> => {
  const em = forCompany(deps.systemEm(), connection.companyId);
  const storedMedia = message.media
    ? await deps.media.save(connection.companyId, message.media)
    : undefined;
  const { media: _bytes, timestamp, ...rest } = message;
  const payload: QueuedPayload = {
    ...rest,
    timestamp: timestamp.toISOString(),
    storedMedia: storedMedia && { fileName: storedMedia.fileName, mediaName: storedMedia.mediaName, mimetype: storedMedia.mimetype },
  };
  const rows: { id: number }[] = await em.execute(
    `insert into inbound_queue (company_id, whatsapp_id, wid, payload, attempts, received_at)
     select ?, ?, ?, ?, 0, now() where not exists (select 1 from messages where whatsapp_id = ? and wid = ?)
     on conflict (whatsapp_id, wid) do nothing returning id`,
    [connection.companyId, connection.id, message.id, JSON.stringify(payload), connection.id, message.id],
  );
  if (rows.length === 0) {
    // Stored already, or the same delivery is queued (a replay racing the first): the first one wins.
    if (storedMedia) await deps.media.remove(connection.companyId, storedMedia.fileName);
    return 'duplicate';
  }
  return processItem(deps, connection, { id: rows[0].id, payload, attempts: 0 });
};

const mediaTypeOf = (payload: QueuedPayload): MediaType => payload.mediaType as MediaType;

/** Processes one queued message by its queue id (replays after a restart). */
export const processQueued = async (deps: PipelineDeps, connection: ConnectionKey, queueId: number): Promise<InboundOutcome> => {
  const item = await forCompany(deps.systemEm(), connection.companyId).findOne(InboundQueueItem, queueId);
  if (!item) return 'duplicate';
  return processItem(deps, connection, { id: item.id, payload: item.payload as QueuedPayload, attempts: item.attempts });
};

const processItem = async (
  deps: PipelineDeps,
  connection: ConnectionKey,
  item: { id: number; payload: QueuedPayload; attempts: number },
): Promise<InboundOutcome> => {
  const root = forCompany(deps.systemEm(), connection.companyId);
  const queueId = item.id;
  const payload = item.payload;

  let outcome = 'stored' as InboundOutcome;
  let announce:
    | { message: object; ticket: Awaited<ReturnType<typeof presentTicket>>; contact: Contact; isNewTicket: boolean; facts: InboundFacts }
    | undefined;
  let ratingTicket: Ticket | undefined;
  try {
    const fast = await storeInboundFast(root, deps.media, {
      companyId: connection.companyId,
      whatsappId: connection.id,
      queueItemId: queueId,
      wid: payload.id,
      chat: payload.chat,
      participant: payload.participant,
      fromMe: payload.fromMe,
      body: payload.body,
      mediaType: mediaTypeOf(payload),
      mediaUrl: payload.storedMedia?.fileName ?? null,
      mediaName: payload.storedMedia?.mediaName ?? null,
      quotedId: payload.quotedId,
      raw: payload.raw,
      createdAt: new Date(payload.timestamp),
    });
    if (fast) {
      // A quoted message is shown in full, with its sender: the general presenter reads it.
      const message = fast.message.quotedMsgId
        ? (await presentMessages(root, deps.media, [await root.findOneOrFail(Message, fast.messageId)]))[0]
        : fast.message;
      announce = {
        message,
        ticket: fast.ticket,
        contact: fast.contact,
        isNewTicket: fast.isNewTicket,
        facts: {
          companyId: connection.companyId,
          whatsappId: connection.id,
          ticketId: fast.ticketId,
          contactId: fast.contact.id,
          messageId: fast.messageId,
          body: payload.body,
          fromMe: payload.fromMe,
          isGroup: false,
          isNewTicket: fast.isNewTicket,
        },
      };
    } else {
      await root.transactional(async (em) => {
        const done = () => em.nativeDelete(InboundQueueItem, { id: queueId });
        if (payload.chat.isGroup && (await getSettingValue(em, 'CheckMsgIsGroup')) === 'enabled') {
          outcome = 'ignored';
          return done();
        }
        const chatContact = await upsertChannelContact(em, payload.chat);
        const sender = payload.participant ? await upsertChannelContact(em, payload.participant) : chatContact;

        // The conversation in progress; else a reply to a rating request belongs to the ticket that asked;
        // else a new ticket.
        const active = await findActiveTicket(em, chatContact.id, connection.id);
        const awaiting = !active && !payload.fromMe ? await findTicketAwaitingRating(em, chatContact.id, connection.id) : null;
        const { ticket, created } = active
          ? { ticket: active, created: false }
          : awaiting
            ? { ticket: awaiting, created: false }
            : await findOrCreateActiveTicket(em, {
                contactId: chatContact.id,
                whatsappId: connection.id,
                isGroup: !!payload.chat.isGroup,
                knownAbsent: true,
              });

        const quoted = payload.quotedId
          ? await em.findOne(Message, { whatsappId: connection.id, wid: payload.quotedId }, { fields: ['id'] })
          : null;
        const { message, created: stored } = await storeMessage(em, {
          ticketId: ticket.id,
          wid: payload.id,
          whatsappId: connection.id,
          contactId: payload.fromMe ? null : sender.id,
          body: payload.body,
          fromMe: payload.fromMe,
          read: payload.fromMe,
          ack: payload.fromMe ? 2 : 0,
          mediaType: mediaTypeOf(payload),
          mediaUrl: payload.storedMedia?.fileName ?? null,
          mediaName: payload.storedMedia?.mediaName ?? null,
          quotedMsgId: quoted?.id ?? null,
          participant: payload.participant ? (payload.participant.number ?? payload.participant.lid) : null,
          raw: payload.raw,
          createdAt: new Date(payload.timestamp),
        });
        if (!stored) {
          outcome = 'duplicate';
          return done();
        }
        if (awaiting) {
          outcome = 'rating';
          ratingTicket = ticket;
        } else {
          // One atomic statement: concurrent messages of a ticket neither lose a count nor a newer preview.
          // Typing on the phone means someone read the conversation.
          const [updated] = await em.execute<Record<string, unknown>[]>(
            `update tickets set
               unread_messages = case when ? then 0 else unread_messages + 1 end,
               last_message = case when last_message_at is null or last_message_at <= ? then ? else last_message end,
               last_from_me = case when last_message_at is null or last_message_at <= ? then ? else last_from_me end,
               last_message_at = greatest(coalesce(last_message_at, ?), ?),
               updated_at = now()
             where id = ? returning *`,
            [payload.fromMe, message.createdAt, previewOf(message), message.createdAt, payload.fromMe, message.createdAt, message.createdAt, ticket.id],
          );
          em.map(Ticket, updated);
        }
        await done();
        // Presented inside the transaction: the contact and ticket are already in this identity map.
        const [presentedMessage] = await presentMessages(em, deps.media, [message]);
        announce = {
          message: presentedMessage,
          ticket: await presentTicket(em, ticket),
          contact: chatContact,
          isNewTicket: created,
          facts: {
            companyId: connection.companyId,
            whatsappId: connection.id,
            ticketId: ticket.id,
            contactId: chatContact.id,
            messageId: message.id,
            body: message.body,
            fromMe: payload.fromMe,
            isGroup: ticket.isGroup,
            isNewTicket: created,
          },
        };
    });
    }
  } catch (err) {
    await root
      .nativeUpdate(InboundQueueItem, { id: queueId }, { attempts: item.attempts + 1, lastError: String((err as Error)?.message ?? err).slice(0, 500) })
      .catch(() => undefined);
    throw err;
  }

  if (outcome === 'duplicate' || outcome === 'ignored') {
    if (payload.storedMedia) await deps.media.remove(connection.companyId, payload.storedMedia.fileName);
    return outcome;
  }
  if (announce) {
    const { ticket } = announce;
    // One event: its listener also announces the (new or re-sorted) ticket to the lists.
    deps.events.emit('message.created', {
      companyId: connection.companyId,
      message: announce.message,
      ticket,
      contact: presentContact(announce.contact),
      isNewTicket: announce.isNewTicket,
    });
  }
  if (announce && outcome === 'stored' && deps.automation) {
    // A failing bot must not fail the message, which is stored and announced already.
    await deps.automation.onInbound(announce.facts).catch((err: unknown) =>
      deps.logger.error({ err, ticketId: announce!.facts.ticketId }, 'inbound automation failed'),
    );
  }
  if (ratingTicket && !payload.fromMe) {
    const em = forCompany(deps.systemEm(), connection.companyId);
    const fresh = await em.findOneOrFail(Ticket, ratingTicket.id);
    await handleRatingReply(deps, em, fresh, payload.body);
  }
  return outcome;
};

/** At start-up: what a crash left in the inbound queue is processed again. */
export const replayInboundQueue = async (deps: PipelineDeps): Promise<number> => {
  const items = await deps.systemEm().find(InboundQueueItem, { attempts: { $lt: 5 } }, { orderBy: { id: 'asc' }, limit: 1000 });
  for (const item of items) {
    await processQueued(deps, { id: item.whatsappId, companyId: item.companyId }, item.id).catch((err: unknown) =>
      deps.logger.error({ err, whatsappId: item.whatsappId }, 'replaying an inbound message failed'),
    );
  }
  return items.length;
};

/** Receipts, edits and revokes of stored messages. */
export const applyMessageUpdate = async (deps: PipelineDeps, connection: ConnectionKey, update: MessageUpdate): Promise<void> => {
  const em = forCompany(deps.systemEm(), connection.companyId);
  const message = await em.findOne(Message, { whatsappId: connection.id, wid: update.id });
  if (!message) return;
  let changed = false;
  // Acks only move forward (a late "delivered" must not undo "read").
  if (update.ack !== undefined && update.ack > message.ack) {
    message.ack = update.ack;
    changed = true;
  }
  if (update.editedBody !== undefined && update.editedBody !== message.body) {
    message.body = update.editedBody;
    message.isEdited = true;
    changed = true;
  }
  if (update.revoked && !message.isDeleted) {
    message.isDeleted = true;
    changed = true;
  }
  if (!changed) return;
  await em.flush();
  const ticket = await em.findOneOrFail(Ticket, message.ticketId);
  if (update.editedBody !== undefined || update.revoked) {
    const latest = await em.findOne(Message, { ticketId: ticket.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    if (latest?.id === message.id) {
      ticket.lastMessage = previewOf(message);
      await em.flush();
    }
  }
  const [presented] = await presentMessages(em, deps.media, [message]);
  deps.events.emit('message.updated', { companyId: connection.companyId, message: presented, placement: placementOf(ticket) });
};
