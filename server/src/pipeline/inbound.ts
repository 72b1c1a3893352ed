import type { EntityManager } from '@mikro-orm/postgresql';
import type { InboundMessage, MediaDownload, MessageUpdate } from '../channels/types.js';
import { forCompany, forSystem } from '../db/tenant.js';
import type { DomainEvents, EventBus } from '../events/bus.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { MediaTooLargeError, type MediaStore } from '../media/storage.js';
import { digitsOnly, presentContact, upsertChannelContact } from '../modules/contacts/index.js';
import { Message, type MediaType } from '../modules/messages/message.entity.js';
import { type ConversationDeps, followLastMessage, presentMessages, previewOf, storeMessage } from '../modules/messages/index.js';
import { failAfterSend } from '../modules/outbox/index.js';
import { getSettingValue } from '../modules/settings/index.js';
import { findActiveTicket, findOrCreateActiveTicket, findTicketAwaitingRating, messageCounters, placementOf, presentTicket, SYSTEM } from '../modules/tickets/index.js';
import { Ticket } from '../modules/tickets/ticket.entity.js';
import { named } from '../db/sql.js';
import { Batcher, type Settled } from './batcher.js';
import { storeInboundBatch, type FastStored } from './inbound-batch.js';
import { InboundQueueItem } from './inbound-queue.entity.js';
import { runSteps, type InboundFacts, type InboundStep } from './steps/step.js';
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
const storable = (message: InboundMessage): InboundMessage => {
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
    ? (await presentMessages(root, deps.media, [await root.findOneOrFail(Message, stored.messageId)]))[0]
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
            `update tickets set ${messageCounters('tickets', { fromMe: ':fromMe::boolean', at: ':at::timestamptz', preview: ':preview' })}
             where id = :id returning *`,
            { fromMe: payload.fromMe, at: message.createdAt, preview: previewOf(message), id: ticket.id },
          ),
        );
        em.map(Ticket, updated);
      }
      await done();
      // Presented inside the transaction: the contact and ticket are already in this identity map.
      const [presentedMessage] = await presentMessages(em, deps.media, [message]);
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

/** Receipts, error receipts, edits and revokes of stored messages, and reactions taken back. */
export const applyMessageUpdate = async (deps: PipelineDeps, connection: ConnectionKey, update: MessageUpdate): Promise<void> => {
  const em = forCompany(deps.systemEm(), connection.companyId);
  const message = await em.findOne(Message, { whatsappId: connection.id, wid: update.id });
  if (!message) return;
  if (update.reactionRemoved) {
    await removeReaction(deps, em, connection, message, update.reactionRemoved);
    return;
  }
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
  if (update.sendError && message.fromMe && !message.isDeleted && message.sendError !== update.sendError) {
    // Refused after it left (an error receipt): failed, with the reason and the resend action.
    await failAfterSend(em, connection.id, update.id, update.sendError);
    message.sendError = update.sendError;
    changed = true;
  }
  if (!changed) return;
  await em.flush();
  await announceUpdated(deps, em, connection, message, update.editedBody !== undefined || !!update.revoked);
};

/** Tells the clients a stored message changed; `preview`: the ticket list's preview may show it. */
const announceUpdated = async (deps: PipelineDeps, em: EntityManager, connection: ConnectionKey, message: Message, preview: boolean): Promise<void> => {
  if (message.ticketId === null) return;
  const ticket = await em.findOneOrFail(Ticket, message.ticketId);
  // An edit, a delete or a reaction taken back of the latest message moves the list's preview too.
  if (preview) await followLastMessage(em, deps.events, ticket, message);
  const [presented] = await presentMessages(em, deps.media, [message]);
  deps.events.emit('message.updated', { companyId: connection.companyId, message: presented, placement: placementOf(ticket) });
};

/**
 * Someone took their reaction to `target` off (a reaction with no emoji): their reactions to it are marked
 * deleted, which the conversation does not show at all. In a group, only that participant's.
 */
const removeReaction = async (
  deps: PipelineDeps,
  em: EntityManager,
  connection: ConnectionKey,
  target: Message,
  by: NonNullable<MessageUpdate['reactionRemoved']>,
): Promise<void> => {
  const participants = [digitsOnly(by.participant?.number), digitsOnly(by.participant?.lid)].filter((p): p is string => !!p);
  const reactions = await em.find(Message, {
    quotedMsgId: target.id,
    mediaType: 'reactionMessage',
    fromMe: by.fromMe,
    isDeleted: false,
    ...(participants.length > 0 ? { participant: { $in: participants } } : {}),
  });
  if (reactions.length === 0) return;
  for (const reaction of reactions) reaction.isDeleted = true;
  await em.flush();
  for (const reaction of reactions) await announceUpdated(deps, em, connection, reaction, true);
};

/**
 * A message stored as a placeholder (it came without readable content) whose content has now arrived with
 * the same id (a decryption retry, the phone's resend of an ad's lead): the placeholder becomes the message.
 * False when there is no such placeholder.
 */
export const completePlaceholder = async (deps: PipelineDeps, connection: ConnectionKey, received: InboundMessage): Promise<boolean> => {
  if (received.mediaType === 'unavailable') return false;
  const em = forCompany(deps.systemEm(), connection.companyId);
  const message = await em.findOne(Message, { whatsappId: connection.id, wid: received.id, mediaType: 'unavailable' });
  if (!message) return false;
  const incoming = storable(received);
  const stored = incoming.media ? await deps.media.save(connection.companyId, incoming.media) : undefined;
  const quoted = incoming.quotedId ? await em.findOne(Message, { whatsappId: connection.id, wid: incoming.quotedId }, { fields: ['id'] }) : null;
  message.body = incoming.body;
  message.mediaType = incoming.mediaType as MediaType;
  message.mediaUrl = stored?.fileName ?? null;
  message.mediaName = stored?.mediaName ?? null;
  // Its media may still be on its way (completeMedia fills it in).
  message.mediaStatus = incoming.mediaStatus ?? null;
  message.quotedMsgId = quoted?.id ?? null;
  message.raw = incoming.raw ?? null;
  await em.flush();
  await announceUpdated(deps, em, connection, message, true);
  return true;
};

/**
 * The media of a message stored with its media pending: streamed to a file (within the size limit, never
 * whole in memory), then the message is completed and the clients told. A download that fails or is over
 * the limit marks the message so (`failed`, `tooLarge`). Runs outside the chat's ordering: other messages
 * of the chat and of the connection never wait for it.
 */
export const completeMedia = async (deps: PipelineDeps, connection: ConnectionKey, download: MediaDownload): Promise<void> => {
  const em = forCompany(deps.systemEm(), connection.companyId);
  const message = await em.findOne(Message, { whatsappId: connection.id, wid: download.id, mediaStatus: 'pending' });
  // Not waiting for media (an echo of our own send, a duplicate delivery): nothing is fetched.
  if (!message) return;
  const maxBytes = deps.mediaMaxBytes ?? DEFAULT_MEDIA_MAX_BYTES;
  const log = deps.logger.child({ whatsappId: connection.id, messageId: download.id });
  let outcome: { status: 'failed' | 'tooLarge' } | { status: null; fileName: string; mediaName: string };
  if ('error' in download) {
    log.warn({ reason: download.error }, 'media could not be downloaded');
    outcome = { status: 'failed' };
  } else if (download.fileLength !== undefined && download.fileLength > maxBytes) {
    log.info({ fileLength: download.fileLength, maxBytes }, 'media over the download limit; not downloaded');
    outcome = { status: 'tooLarge' };
  } else {
    try {
      const stream = await download.open();
      const stored = await deps.media.saveStream(connection.companyId, { stream, mimetype: download.mimetype, filename: download.filename, maxBytes });
      outcome = { status: null, fileName: stored.fileName, mediaName: stored.mediaName };
    } catch (err) {
      if (err instanceof MediaTooLargeError) {
        log.info({ maxBytes }, 'media over the download limit; download stopped');
        outcome = { status: 'tooLarge' };
      } else {
        log.warn({ err }, 'media download failed');
        outcome = { status: 'failed' };
      }
    }
  }
  // Written only if it still waits (a concurrent completion, a deleted message): the file is dropped otherwise.
  const fields = outcome.status === null ? { mediaStatus: null, mediaUrl: outcome.fileName, mediaName: outcome.mediaName } : { mediaStatus: outcome.status };
  const changed = await em.nativeUpdate(Message, { id: message.id, mediaStatus: 'pending' }, fields);
  if (changed === 0) {
    if (outcome.status === null) await deps.media.remove(connection.companyId, outcome.fileName);
    return;
  }
  const fresh = forCompany(deps.systemEm(), connection.companyId);
  await announceUpdated(deps, fresh, connection, await fresh.findOneOrFail(Message, message.id), false);
};

/** How long a media may stay pending before it counts as lost (its download died with its process). */
export const STALE_MEDIA_MS = 15 * 60_000;

/** How far back (by the message's time) a connecting session takes up media left pending, and how many at once. */
export const RESUME_MEDIA_WINDOW_MS = 24 * 60 * 60_000;
export const RESUME_MEDIA_MAX = 50;

/**
 * The connection's session is connected (at start, after a restart, after a drop): the media its messages
 * still wait for (a crash or a stop cut their download off) are fetched again by it, the newest first,
 * within RESUME_MEDIA_WINDOW_MS and at most RESUME_MEDIA_MAX (a huge backlog does not stampede; older
 * ones are left to the stale sweep, and to the agent's "download again"). Each goes the way of a new
 * download (streamed, size limit, outside the chats' order) and ends in completeMedia. Answers how many
 * were asked for.
 */
export const resumePendingMedia = async (deps: PipelineDeps, connection: ConnectionKey, now = new Date()): Promise<number> => {
  const session = deps.channels.find(connection.id);
  if (!session?.refetchMedia || !session.canSend()) return 0;
  const em = forCompany(deps.systemEm(), connection.companyId);
  // Taken up by touching them: the stale sweep gives each a fresh STALE_MEDIA_MS from now.
  const rows: { id: number }[] = await em.execute(
    `update messages set updated_at = now() where id in (
       select id from messages where company_id = ? and whatsapp_id = ? and media_status = 'pending' and created_at > ?
        order by created_at desc, id desc limit ?)
     returning id`,
    [connection.companyId, connection.id, new Date(now.getTime() - RESUME_MEDIA_WINDOW_MS), RESUME_MEDIA_MAX],
  );
  let resumed = 0;
  for (const { id } of rows) {
    const message = await em.findOne(Message, { id, mediaStatus: 'pending' }, { populate: ['raw'] });
    if (!message?.wid) continue;
    try {
      await session.refetchMedia(message.wid, message.raw);
      resumed += 1;
    } catch (err) {
      // Dropped again meanwhile: the next connect takes them up.
      if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') break;
      // Nothing to fetch it from (no stored object, a provider that cannot): failed now rather than in 15 minutes.
      await completeMedia(deps, connection, { id: message.wid, error: err instanceof AppError ? err.code : String(err) });
    }
  }
  if (rows.length > 0) deps.logger.info({ whatsappId: connection.id, pending: rows.length, resumed }, 'pending media taken up again');
  return resumed;
};

/**
 * Media left pending by a download that will never finish (the process that ran it crashed or was
 * stopped mid-download): marked failed, so the agent is not told "downloading" forever. A download still
 * running after this long is dropped when it ends (completeMedia only fills a pending message).
 *
 * `runningSince` (the job passes this process's start): nothing counts as stale during the first
 * STALE_MEDIA_MS of a process, since its sessions take pending media up when they connect (and touch
 * them); otherwise a sweep overdue at start after a long downtime would fail them before that.
 */
export const failStaleMedia = async (deps: PipelineDeps, now: Date, options: { runningSince?: Date } = {}): Promise<number> => {
  if (options.runningSince && now.getTime() - options.runningSince.getTime() < STALE_MEDIA_MS) return 0;
  const root = forSystem(deps.systemEm());
  const stale: { id: number; company_id: number; whatsapp_id: number | null }[] = await root.execute(
    `update messages set media_status = 'failed', updated_at = now()
      where media_status = 'pending' and updated_at < ? returning id, company_id, whatsapp_id`,
    [new Date(now.getTime() - STALE_MEDIA_MS)],
  );
  for (const row of stale) {
    const em = forCompany(deps.systemEm(), row.company_id);
    const message = await em.findOne(Message, row.id);
    if (message) await announceUpdated(deps, em, { id: row.whatsapp_id ?? 0, companyId: row.company_id }, message, false);
  }
  return stale.length;
};
