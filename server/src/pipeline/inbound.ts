import type { EntityManager } from '@mikro-orm/postgresql';
import type { InboundMessage } from '../channels/types.js';
import { forCompany } from '../db/tenant.js';
import type { DomainEvents, EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { MediaStore } from '../media/storage.js';
import { digitsOnly, presentContact, upsertChannelContact } from '../modules/contacts/index.js';
import { Message, type MediaType } from '../modules/messages/message.entity.js';
import { messageCounters, presentMessage, presentMessages, previewOf, storeMessage } from '../modules/messages/index.js';
import type { ConversationDeps } from '../modules/outbox/index.js';
import { getSettingValue } from '../modules/settings/index.js';
import { findActiveTicket, presentTicket, SYSTEM } from '../modules/tickets/index.js';
import { findOrCreateActiveTicket, findTicketAwaitingRating } from '../modules/transitions/index.js';
import { Ticket } from '../modules/tickets/ticket.entity.js';
import { named } from '../db/sql.js';
import { Batcher, type Settled } from './batcher.js';
import { storeInboundBatch, type FastStored } from './inbound-batch.js';
import { InboundQueueItem } from './inbound-queue.entity.js';
import { runSteps, type InboundFacts, type InboundStep } from './steps/step.js';
import type { StepTasks } from './steps/tasks.js';
import type { StepWaits } from './steps/waiting.js';

/**
 * Inbound messages, as a script: find or create the contact → find or create the ticket → store the
 * message → update the ticket → announce it → run the automation. The common case goes a batch at a time
 * in one statement; the rest is persisted in the inbound queue first and stored one by one. Side effects
 * (realtime) hang off the announced events. Every step is safe to run twice for the same message.
 */
export interface PipelineDeps extends ConversationDeps {
  systemEm: () => EntityManager;
  logger: Logger;
  media: MediaStore;
  events: EventBus;
  /** The inbound automation, in order (steps/index.ts): it runs after a message is stored and announced. */
  steps: InboundStep[];
  /** How a step waits without sleeping (a job); set once the job scheduler exists. */
  waits?: StepWaits;
  /** Where a step defers its slow work (an external call) to, out of the inbound stage. */
  tasks?: StepTasks;
  /** The largest received media that is downloaded (bytes); a larger one is marked `tooLarge`. */
  mediaMaxBytes?: number;
}

/** The default limit on a received media: 100 MB (MEDIA_DOWNLOAD_MAX_MB). */
export const DEFAULT_MEDIA_MAX_BYTES = 100 * 1024 * 1024;

export type { InboundFacts };

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

interface Pending {
  connection: ConnectionKey;
  payload: QueuedPayload;
}

/** A message after the write stage: what became of it and what the after stage needs. */
interface Written {
  connection: ConnectionKey;
  payload: QueuedPayload;
  outcome: InboundOutcome;
  announcement?: DomainEvents['message.created'];
  facts?: InboundFacts;
}

// One set of lanes per pipeline (made on first use), so two apps in one process never share batches.
const batchers = new WeakMap<PipelineDeps, Batcher<Pending, Written, InboundOutcome>>();
const batcherOf = (deps: PipelineDeps) => {
  let batcher = batchers.get(deps);
  if (!batcher) {
    batcher = new Batcher({ write: (_lane, items) => writeBatch(deps, items), after: (_lane, written) => afterBatch(deps, written) });
    batchers.set(deps, batcher);
  }
  return batcher;
};

/** A chat's identities: two messages sharing one are never in the same batch and keep their order. */
const chatKeys = (payload: QueuedPayload): string[] => {
  const number = digitsOnly(payload.chat.number);
  const lid = digitsOnly(payload.chat.lid);
  const keys = [number && `n:${number}`, lid && `l:${lid}`].filter((k): k is string => !!k);
  return keys.length > 0 ? keys : [`w:${payload.id}`];
};

/**
 * Entry point for a channel's message event. Answers once the message is stored, announced and the
 * automation has run; concurrent messages of a connection are written in batches (see Batcher).
 */
export const acceptInbound = async (deps: PipelineDeps, connection: ConnectionKey, received: InboundMessage): Promise<InboundOutcome> => {
  const message = storable(received);
  const storedMedia = message.media ? await deps.media.save(connection.companyId, message.media) : undefined;
  const { media: _bytes, timestamp, ...rest } = message;
  const payload: QueuedPayload = {
    ...rest,
    timestamp: timestamp.toISOString(),
    storedMedia: storedMedia && { fileName: storedMedia.fileName, mediaName: storedMedia.mediaName, mimetype: storedMedia.mimetype },
  };
  return batcherOf(deps).submit(connection.id, { connection, payload }, chatKeys(payload));
};

const mediaTypeOf = (payload: QueuedPayload): MediaType => payload.mediaType as MediaType;

/**
 * What a phone sends, made to fit the database: PostgreSQL text (and JSON) holds no NUL character, and a
 * contact's name has a length. Without this such a message would fail on every attempt.
 */
// eslint-disable-next-line no-control-regex -- the NUL character is exactly what is matched
const NUL = /\u0000/g;
// A NUL escape in JSON text, not preceded by an escaped backslash ("\\u0000" is the text \u0000).
const JSON_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;
export const storable = (message: InboundMessage): InboundMessage => {
  const peer = <P extends InboundMessage['chat'] | undefined>(p: P): P =>
    p && typeof p.name === 'string' ? { ...p, name: p.name.replace(NUL, '').slice(0, 200) } : p;
  const raw = message.raw === undefined ? undefined : JSON.stringify(message.raw);
  return {
    ...message,
    body: message.body.replace(NUL, ''),
    chat: peer(message.chat),
    participant: peer(message.participant),
    raw: raw?.includes('\\u0000') ? JSON.parse(raw.replace(JSON_NUL, '$1')) : message.raw,
  };
};

/**
 * The write stage of a batch (one connection, different chats): the common case of all of them in one
 * statement; each message it leaves goes through the inbound queue and the general path. Then every stored
 * message is announced, in order.
 */
const writeBatch = async (deps: PipelineDeps, items: Pending[]): Promise<Settled<Written>[]> => {
  const connection = items[0].connection;
  const root = forCompany(deps.systemEm(), connection.companyId);
  const fast = await storeInboundBatch(
    root,
    deps.media,
    connection,
    items.map(({ payload }) => ({
      wid: payload.id,
      chat: payload.chat,
      participant: payload.participant,
      fromMe: payload.fromMe,
      body: payload.body,
      mediaType: mediaTypeOf(payload),
      mediaUrl: payload.storedMedia?.fileName ?? null,
      mediaName: payload.storedMedia?.mediaName ?? null,
      mediaStatus: payload.mediaStatus ?? null,
      quotedId: payload.quotedId,
      raw: payload.raw,
      createdAt: new Date(payload.timestamp),
    })),
  ).catch((err: unknown) => {
    // Nothing of the batch was written (one statement): each message takes the general path instead.
    deps.logger.warn({ err, whatsappId: connection.id, messages: items.length }, 'inbound batch failed; storing one by one');
    return items.map(() => null);
  });
  const written = await Promise.all(
    items.map(async ({ payload }, i): Promise<Settled<Written>> => {
      try {
        const stored = fast[i];
        return { ok: true, value: stored ? await fromBatch(root, deps, connection, payload, stored) : await storeAlone(deps, connection, payload) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  for (const result of written) if (result.ok) await settle(deps, result.value);
  return written;
};

/** A message the batch statement stored, as the pipeline announces it. */
const fromBatch = async (root: EntityManager, deps: PipelineDeps, connection: ConnectionKey, payload: QueuedPayload, stored: FastStored): Promise<Written> => {
  // A quoted message is shown in full, with its sender: the general presenter reads it.
  const message = stored.quotedMsgId
    ? (await presentMessages(root, deps.media, [stored.messageId]))[0]
    : stored.message;
  return {
    connection,
    payload,
    outcome: stored.ratingReply ? 'rating' : 'stored',
    announcement: {
      companyId: connection.companyId,
      message,
      ticket: stored.ticket,
      contact: presentContact(stored.contact),
      isNewTicket: stored.isNewTicket,
    },
    facts: {
      companyId: connection.companyId,
      whatsappId: connection.id,
      ticketId: stored.ticketId,
      contactId: stored.contact.id,
      messageId: stored.messageId,
      body: payload.body,
      mediaType: payload.mediaType,
      quotedWid: payload.quotedId ?? null,
      replyId: payload.replyId ?? null,
      fromMe: payload.fromMe,
      isGroup: false,
      isNewTicket: stored.isNewTicket,
      ratingReply: stored.ratingReply,
    },
  };
};

/** The general path: persisted in the inbound queue first (a failure is retried at start-up), then stored. */
const storeAlone = async (deps: PipelineDeps, connection: ConnectionKey, payload: QueuedPayload): Promise<Written> => {
  const rows: { id: number }[] = await forCompany(deps.systemEm(), connection.companyId).execute(
    `insert into inbound_queue (company_id, whatsapp_id, wid, payload, attempts, received_at)
     select ?, ?, ?, ?, 0, now() where not exists (select 1 from messages where whatsapp_id = ? and wid = ?)
     on conflict (whatsapp_id, wid) do nothing returning id`,
    [connection.companyId, connection.id, payload.id, JSON.stringify(payload), connection.id, payload.id],
  );
  // Stored already, or the same delivery is queued (a replay racing the first): the first one wins.
  if (rows.length === 0) return { connection, payload, outcome: 'duplicate' };
  return storeQueued(deps, connection, { id: rows[0].id, payload, attempts: 0 });
};

/** What follows a written message before the after stage: its media dropped if unused, its announcement. */
const settle = async (deps: PipelineDeps, written: Written): Promise<void> => {
  const { connection, payload } = written;
  if ((written.outcome === 'duplicate' || written.outcome === 'ignored') && payload.storedMedia) {
    await deps.media.remove(connection.companyId, payload.storedMedia.fileName);
  }
  // One event: its listener also announces the (new or re-sorted) ticket to the lists.
  if (written.announcement) deps.events.emit('message.created', written.announcement);
};

/** The after stage: the inbound steps (rating reply, chatbot...) on the batch's stored messages, in order. */
const afterBatch = async (deps: PipelineDeps, batch: Written[]): Promise<Settled<InboundOutcome>[]> => {
  const facts = batch.flatMap((w) => ((w.outcome === 'stored' || w.outcome === 'rating') && w.facts ? [w.facts] : []));
  // A failing step must not fail the messages, which are stored and announced already (runSteps logs it).
  if (facts.length > 0) await runSteps(deps.steps, facts, deps.logger);
  return batch.map((w) => ({ ok: true, value: w.outcome }));
};

/** Processes one queued message by its queue id (replays after a restart). */
export const processQueued = async (deps: PipelineDeps, connection: ConnectionKey, queueId: number): Promise<InboundOutcome> => {
  const item = await forCompany(deps.systemEm(), connection.companyId).findOne(InboundQueueItem, queueId);
  if (!item) return 'duplicate';
  const written = await storeQueued(deps, connection, { id: item.id, payload: item.payload as QueuedPayload, attempts: item.attempts });
  await settle(deps, written);
  const [result] = await afterBatch(deps, [written]);
  if (!result.ok) throw result.error;
  return result.value;
};

/** The general path for a queued message: every case (groups, identity merges, ratings), in one transaction. */
const storeQueued = async (
  deps: PipelineDeps,
  connection: ConnectionKey,
  item: { id: number; payload: QueuedPayload; attempts: number },
): Promise<Written> => {
  const root = forCompany(deps.systemEm(), connection.companyId);
  const queueId = item.id;
  const payload = item.payload;
  const written: Written = { connection, payload, outcome: 'stored' };
  try {
    await root.transactional(async (em) => {
      const done = () => em.nativeDelete(InboundQueueItem, { id: queueId });
      if (payload.chat.isGroup && (await getSettingValue(em, 'CheckMsgIsGroup')) === 'enabled') {
        written.outcome = 'ignored';
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
          : await findOrCreateActiveTicket(em, SYSTEM, {
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
        // Typed on the phone: sent (1); its receipts move it on like any message of ours.
        ack: payload.fromMe ? 1 : 0,
        mediaType: mediaTypeOf(payload),
        mediaUrl: payload.storedMedia?.fileName ?? null,
        mediaName: payload.storedMedia?.mediaName ?? null,
        mediaStatus: payload.mediaStatus ?? null,
        quotedMsgId: quoted?.id ?? null,
        participant: payload.participant ? (payload.participant.number ?? payload.participant.lid) : null,
        raw: payload.raw,
        createdAt: new Date(payload.timestamp),
      });
      if (!stored) {
        written.outcome = 'duplicate';
        return done();
      }
      // A reaction to the rating request, or a message that could not be read, is kept in that
      // conversation but is no rating.
      if (awaiting && payload.mediaType !== 'reactionMessage' && payload.mediaType !== 'unavailable') {
        written.outcome = 'rating';
      } else {
        // One atomic statement: concurrent messages of a ticket neither lose a count nor a newer preview.
        // Typing on the phone means someone read the conversation.
        const [updated] = await em.execute<Record<string, unknown>[]>(
          ...named(
            `update tickets set ${messageCounters('tickets', { fromMe: ':fromMe::boolean', read: ':fromMe::boolean', at: ':at::timestamptz', preview: ':preview' })}
             where id = :id returning *`,
            { fromMe: payload.fromMe, at: message.createdAt, preview: previewOf(message), id: ticket.id },
          ),
        );
        em.map(Ticket, updated);
      }
      await done();
      // Presented inside the transaction: the contact and ticket are already in this identity map.
      const presentedMessage = await presentMessage(em, deps.media, message);
      written.announcement = {
        companyId: connection.companyId,
        message: presentedMessage,
        ticket: await presentTicket(em, ticket),
        contact: presentContact(chatContact),
        isNewTicket: created,
      };
      written.facts = {
        companyId: connection.companyId,
        whatsappId: connection.id,
        ticketId: ticket.id,
        contactId: chatContact.id,
        messageId: message.id,
        body: message.body,
        mediaType: message.mediaType,
        quotedWid: payload.quotedId ?? null,
        replyId: payload.replyId ?? null,
        fromMe: payload.fromMe,
        isGroup: ticket.isGroup,
        isNewTicket: created,
        ratingReply: written.outcome === 'rating',
      };
    });
  } catch (err) {
    await root
      .nativeUpdate(InboundQueueItem, { id: queueId }, { attempts: item.attempts + 1, lastError: String((err as Error)?.message ?? err).slice(0, 500) })
      .catch(() => undefined);
    throw err;
  }
  return written;
};

/**
 * What a crash left of a connection's messages in the inbound queue is processed again, in order: by the
 * process that takes the connection's lease, before its session starts (so before new messages of it).
 */
export const replayInboundQueue = async (deps: PipelineDeps, connection: ConnectionKey): Promise<number> => {
  const items = await forCompany(deps.systemEm(), connection.companyId).find(
    InboundQueueItem,
    { whatsappId: connection.id, attempts: { $lt: 5 } },
    { orderBy: { id: 'asc' }, limit: 1000 },
  );
  for (const item of items) {
    await processQueued(deps, connection, item.id).catch((err: unknown) =>
      deps.logger.error({ err, whatsappId: item.whatsappId }, 'replaying an inbound message failed'),
    );
  }
  return items.length;
};
