import type { EntityManager } from '@mikro-orm/postgresql';
import type { InboundMessage, MessageUpdate } from '../channels/types.js';
import { forCompany } from '../db/tenant.js';
import { Contact } from '../modules/contacts/contact.entity.js';
import { digitsOnly } from '../modules/contacts/index.js';
import { Message, type MediaType } from '../modules/messages/message.entity.js';
import { presentMessage } from '../modules/messages/index.js';
import { failAfterSend, recordReceipt } from '../modules/outbox/index.js';
import { followLastMessage, placementOf } from '../modules/tickets/index.js';
import { Ticket } from '../modules/tickets/ticket.entity.js';
import { storable, type ConnectionKey, type PipelineDeps } from './inbound.js';

/**
 * What happens to a message after it was stored: receipts, error receipts, edits and deletes, reactions
 * taken back, and a placeholder completed by its content arriving late. Each is announced as
 * `message.updated` (and moves the ticket's preview when it is the latest message).
 */
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
    // Delivered or read: recorded on our outbox row and announced, with or without a ticket.
    if (message.fromMe) await recordReceipt(deps, em, connection.id, update.id, update.ack);
  }
  const fromSender = (update.editedBody !== undefined || update.revoked) && (await sentByAuthor(em, message, update));
  if (!fromSender && (update.editedBody !== undefined || update.revoked)) {
    deps.logger.warn({ whatsappId: connection.id, messageId: message.id, edit: update.editedBody !== undefined, revoke: !!update.revoked }, 'ignored an edit or delete not made by the message’s sender');
  }
  if (fromSender && update.editedBody !== undefined && update.editedBody !== message.body) {
    message.body = update.editedBody;
    message.isEdited = true;
    changed = true;
  }
  if (fromSender && update.revoked && !message.isDeleted) {
    message.isDeleted = true;
    changed = true;
  }
  if (update.sendError && message.fromMe && !message.isDeleted && message.sendError !== update.sendError) {
    // Refused after it left (an error receipt): failed, with the reason and the resend action.
    await failAfterSend(deps, em, connection.id, update.id, update.sendError);
    message.sendError = update.sendError;
    changed = true;
  }
  if (!changed) return;
  await em.flush();
  await announceUpdated(deps, em, connection, message, update.editedBody !== undefined || !!update.revoked);
};

const samePeer = (contact: { number: string | null; lid: string | null }, peer: { number: string | null; lid: string | null }) =>
  (!!peer.number && (contact.number === peer.number || contact.number === digitsOnly(peer.number))) || (!!peer.lid && contact.lid === peer.lid);

/**
 * Whether an edit or a delete comes from the message's own sender: through the message's chat, from the
 * same side (this account for ours, the customer for theirs), in a group from the same participant — or,
 * for a delete, from a group admin. Anyone who learnt a message id could otherwise rewrite or hide it.
 */
const sentByAuthor = async (em: EntityManager, message: Message, update: MessageUpdate): Promise<boolean> => {
  const author = update.author;
  if (!author) return false;
  const ticket = message.ticketId ? await em.findOne(Ticket, { id: message.ticketId }, { fields: ['contactId'] }) : null;
  const chatId = ticket?.contactId ?? message.contactId;
  const chat = chatId ? await em.findOne(Contact, { id: chatId }, { fields: ['number', 'lid', 'isGroup'] }) : null;
  if (!chat || !samePeer(chat, author.chat)) return false;
  if (update.revoked && update.editedBody === undefined && chat.isGroup && author.groupAdmin) return true;
  if (author.fromMe !== message.fromMe) return false;
  if (!chat.isGroup || message.fromMe) return true;
  return !!author.participant && !!message.participant && [author.participant.number, author.participant.lid].includes(message.participant);
};

/** Tells the clients a stored message changed; `preview`: the ticket list's preview may show it. */
export const announceUpdated = async (deps: PipelineDeps, em: EntityManager, connection: ConnectionKey, message: Message, preview: boolean): Promise<void> => {
  if (message.ticketId === null) return;
  const ticket = await em.findOneOrFail(Ticket, message.ticketId);
  // An edit, a delete or a reaction taken back of the latest message moves the list's preview too.
  if (preview) await followLastMessage(em, deps.events, ticket, message);
  const presented = await presentMessage(em, deps.media, message);
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
