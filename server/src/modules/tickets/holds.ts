import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TicketView } from '@atrium/shared';
import type { TicketActor } from './actor.js';
import { ConversationHold, type AutomationHolder } from './conversation-hold.entity.js';
import { Ticket } from './ticket.entity.js';

/**
 * Who holds a conversation (DESIGN.md, "The automation spine"): nobody, a person (the ticket's user), or a
 * piece of automation with its state (one `conversation_holds` row). The inbound steps ask it before they
 * claim a message, and a new holder (a flow, an integration) takes the conversation here instead of
 * adding flags to the ticket. What a holder keeps in `state` and `memory` is its own business (the
 * chatbot's shape is in the chatbot module); this file only knows the rules every holder follows.
 */
export type Holder = 'nobody' | 'person' | AutomationHolder;

type HoldFields = Pick<ConversationHold, 'holder' | 'holderId' | 'active'>;

/** An automation hold wins over the ticket's user: it was given the conversation explicitly. */
export const holderOf = (ticket: Pick<Ticket, 'userId'>, hold: Pick<ConversationHold, 'holder'> | null): Holder =>
  hold?.holder ?? (ticket.userId !== null ? 'person' : 'nobody');

export const findHold = (em: EntityManager, ticketId: number): Promise<ConversationHold | null> =>
  em.findOne(ConversationHold, { ticketId });

/** Gives the conversation to a holder, replacing whoever held it, with that holder's starting state. */
export const holdConversation = async (
  em: EntityManager,
  ticket: Pick<Ticket, 'id' | 'companyId'>,
  _actor: TicketActor,
  input: { holder: AutomationHolder; holderId?: number | null; state?: Record<string, unknown>; memory?: Record<string, unknown>; active?: boolean },
): Promise<ConversationHold> => {
  const hold =
    (await findHold(em, ticket.id)) ??
    em.create(ConversationHold, { ticketId: ticket.id, companyId: ticket.companyId, holder: input.holder });
  hold.holder = input.holder;
  hold.holderId = input.holderId ?? null;
  hold.state = input.state ?? {};
  hold.memory = input.memory ?? {};
  hold.active = input.active ?? true;
  return hold;
};

/**
 * The hold of `holder` on this ticket, taken (idle, empty) when nobody holds it; null when another holder
 * does. For automation that keeps a memory of a conversation before it works it (the chatbot's menus).
 */
export const holdIfFree = async (em: EntityManager, ticket: Pick<Ticket, 'id' | 'companyId'>, holder: AutomationHolder) => {
  const hold = await findHold(em, ticket.id);
  if (!hold) return em.create(ConversationHold, { ticketId: ticket.id, companyId: ticket.companyId, holder, active: false });
  return hold.holder === holder ? hold : null;
};

/** Whatever automation held the conversation lets go of it (written at the next flush). */
export const releaseHold = async (em: EntityManager, ticket: Pick<Ticket, 'id'>): Promise<void> => {
  const hold = await findHold(em, ticket.id);
  if (hold) em.remove(hold);
};

/** `holder`, when it holds the conversation, lets go of it (its state and memory go too). */
export const releaseHoldOf = async (em: EntityManager, ticket: Pick<Ticket, 'id'>, holder: AutomationHolder): Promise<void> => {
  const hold = await findHold(em, ticket.id);
  if (hold?.holder === holder) em.remove(hold);
};

/**
 * The ticket moved to another queue, or a person stepped in: `holder`, when it holds the conversation,
 * stops working it. Its working state goes; its memory of the conversation stays (the chatbot's menu
 * count and pause last the whole conversation).
 */
export const idleHold = async (em: EntityManager, ticket: Pick<Ticket, 'id'>, holder: AutomationHolder): Promise<void> => {
  const hold = await findHold(em, ticket.id);
  if (hold?.holder !== holder) return;
  hold.active = false;
  hold.state = {};
};

/** The ticket view's automation fields, which the contract keeps on the ticket. */
export const holdView = (hold: HoldFields | null): Pick<TicketView, 'chatbot' | 'useIntegration' | 'integrationId' | 'promptId'> => ({
  chatbot: hold?.holder === 'chatbot' && hold.active,
  // An integration or prompt that handed the conversation to a person (inactive) no longer answers it.
  useIntegration: hold?.holder === 'integration' && hold.active,
  integrationId: hold?.holder === 'integration' && hold.active ? hold.holderId : null,
  promptId: hold?.holder === 'prompt' && hold.active ? hold.holderId : null,
});

/**
 * PUT /tickets' automation fields: an integration or a prompt takes the conversation when named, `false` or
 * `null` lets it go, and the chatbot stops at any agent action unless the caller keeps it on.
 */
export const applyHoldInput = async (
  em: EntityManager,
  ticket: Pick<Ticket, 'id' | 'companyId'>,
  actor: TicketActor,
  input: { chatbot?: boolean; useIntegration?: boolean; integrationId?: number | null; promptId?: number | null },
): Promise<void> => {
  const hold = await findHold(em, ticket.id);
  if (input.useIntegration === true) {
    await holdConversation(em, ticket, actor, { holder: 'integration', holderId: input.integrationId ?? (hold?.holder === 'integration' ? hold.holderId : null) });
    return;
  }
  if (input.promptId) {
    await holdConversation(em, ticket, actor, { holder: 'prompt', holderId: input.promptId });
    return;
  }
  const letGo =
    (hold?.holder === 'integration' && input.useIntegration === false) || (hold?.holder === 'prompt' && input.promptId === null);
  if (letGo) await releaseHold(em, ticket);
  if (input.chatbot) {
    const bot = await holdIfFree(em, ticket, 'chatbot');
    if (bot) bot.active = true;
  } else {
    await idleHold(em, ticket, 'chatbot');
  }
};

/**
 * One piece of automation at a time per conversation: `act` runs in a transaction holding the ticket's
 * row lock, with the ticket and its hold, so an inbound message, a resumed wait and a deferred answer of
 * the same ticket take turns instead of interleaving. With `expectVersion` (what a wait or a deferred task
 * saw when it was planned), `act` runs only if the hold has not changed since; otherwise nothing happens
 * and the answer is `undefined`: a stale continuation is a no-op. The hold's version moves at every change
 * written (optimistic lock), so of two continuations planned on one version, one advances it.
 */
export const withConversation = async <T>(
  em: EntityManager,
  ticketId: number,
  act: (tx: EntityManager, ticket: Ticket, hold: ConversationHold | null) => Promise<T>,
  options: { expectVersion?: number } = {},
): Promise<T | undefined> =>
  em.transactional(async (tx) => {
    const ticket = await tx.findOne(Ticket, ticketId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!ticket) return undefined;
    const hold = await findHold(tx, ticketId);
    if (options.expectVersion !== undefined && hold?.version !== options.expectVersion) return undefined;
    return act(tx, ticket, hold);
  });
