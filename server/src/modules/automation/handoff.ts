import type { EntityManager } from '@mikro-orm/postgresql';
import type { InboundFacts } from '../../pipeline/steps/step.js';
import { Message } from '../messages/message.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { TicketNote } from '../ticket-notes/ticket-note.entity.js';
import type { ConversationHold } from '../tickets/conversation-hold.entity.js';
import { holdConversation, placementOf, type TicketActor } from '../tickets/index.js';
import type { Ticket } from '../tickets/ticket.entity.js';
import { announce, placeTicket, type TransitionDeps } from '../transitions/index.js';
import type { AutomationMemory, AutomationTarget } from './targets.js';

/** The actor an integration or a prompt acts as. */
export const actorOf = (target: AutomationTarget): TicketActor =>
  target.kind === 'integration' ? { kind: 'integration', integrationId: target.id } : { kind: 'prompt', promptId: target.id };

/** Whether this hold is the target answering the conversation now. */
export const isAnswering = (hold: ConversationHold | null, target: AutomationTarget): hold is ConversationHold =>
  hold !== null && hold.holder === target.kind && hold.holderId === target.id && hold.active;

/**
 * The target takes the conversation (from nobody, the chatbot, or another automation of an earlier
 * queue), remembering the queue it answers in. Nothing is written when it already answers it: a new
 * message does not move the hold's version, which deferred work checks.
 */
export const takeConversation = async (em: EntityManager, ticket: Ticket, hold: ConversationHold | null, target: AutomationTarget) => {
  if (isAnswering(hold, target)) return hold;
  const memory: AutomationMemory = { scopeQueueId: ticket.queueId };
  return holdConversation(em, ticket, actorOf(target), { holder: target.kind, holderId: target.id, memory: { ...memory }, state: {} });
};

/** An internal note on the ticket, written by the platform (no user): why the automation stopped. */
export const automationNote = async (em: EntityManager, ticket: Ticket, note: string) => {
  em.create(TicketNote, { companyId: ticket.companyId, ticketId: ticket.id, contactId: ticket.contactId, userId: null, note: note.slice(0, 4000) });
};

/**
 * The automation gives the conversation to a person: the ticket waits (pending, no user) in `queueId`
 * (the prompt's queue; the ticket's own when null), the automation stops answering it in that queue, and
 * an internal note says why. Inside the caller's transaction; the clients hear of it after commit.
 */
export const handToPerson = async (
  deps: TransitionDeps,
  em: EntityManager,
  ticket: Ticket,
  target: AutomationTarget,
  input: { queueId?: number | null; note?: string },
): Promise<void> => {
  const actor = actorOf(target);
  const before = placementOf(ticket);
  const queueId = input.queueId ?? ticket.queueId;
  if (ticket.status !== 'pending' || ticket.queueId !== queueId || ticket.userId !== null) {
    await placeTicket(deps, em, ticket, actor, { status: 'pending', userId: null, queueId, whatsappId: ticket.whatsappId });
  }
  const memory: AutomationMemory = { scopeQueueId: ticket.queueId };
  await holdConversation(em, ticket, actor, { holder: target.kind, holderId: target.id, active: false, state: { handedOff: true }, memory: { ...memory } });
  if (input.note) await automationNote(em, ticket, input.note);
  await em.flush();
  await announce(deps, em, ticket, before, actor);
};

/** The facts of the ticket's latest customer message (automation starting after the chatbot chose its queue). */
export const latestInboundFacts = async (em: EntityManager, ticket: Ticket): Promise<InboundFacts | null> => {
  const message = await em.findOne(Message, { ticketId: ticket.id, fromMe: false, isDeleted: false }, { orderBy: { id: 'desc' } });
  if (!message || ticket.whatsappId === null) return null;
  const contact = await em.findOne(Contact, ticket.contactId, { fields: ['id'] });
  if (!contact) return null;
  return {
    companyId: ticket.companyId,
    whatsappId: ticket.whatsappId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    messageId: message.id,
    body: message.body,
    mediaType: message.mediaType,
    quotedWid: null,
    replyId: null,
    fromMe: false,
    isGroup: ticket.isGroup,
    isNewTicket: false,
    ratingReply: false,
  };
};

/** The text messages of a ticket up to `uptoId`, the last `limit` in chronological order (no duplicates). */
export const conversationHistory = async (em: EntityManager, ticketId: number, uptoId: number, limit: number) => {
  const newestFirst = await em.find(
    Message,
    { ticketId, id: { $lte: uptoId }, isDeleted: false, mediaType: { $in: ['chat', 'audio'] } },
    { orderBy: { id: 'desc' }, limit, fields: ['id', 'body', 'fromMe', 'mediaType', 'mediaUrl', 'mediaStatus', 'isSystem', 'createdAt'] },
  );
  return newestFirst.reverse();
};
