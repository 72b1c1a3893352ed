import type { EntityManager } from '@mikro-orm/postgresql';
import type { TicketView } from '@atrium/shared';
import { ConversationHold, type AutomationHolder } from './conversation-hold.entity.js';
import type { Ticket } from './ticket.entity.js';
import type { TicketActor } from './transitions.js';

/**
 * Who holds a conversation (DESIGN.md, "The automation spine"): nobody, a person (the ticket's user), or a
 * piece of automation with its state (one `conversation_holds` row). The inbound steps ask it before they
 * claim a message, and a new holder (a flow, an integration) takes the conversation here instead of
 * adding flags to the ticket.
 */
export type Holder = 'nobody' | 'person' | AutomationHolder;

type HoldFields = Pick<ConversationHold, 'holder' | 'holderId' | 'state'>;

/** An automation hold wins over the ticket's user: it was given the conversation explicitly. */
export const holderOf = (ticket: Pick<Ticket, 'userId'>, hold: Pick<ConversationHold, 'holder'> | null): Holder =>
  hold?.holder ?? (ticket.userId !== null ? 'person' : 'nobody');

/** The chatbot's memory of a conversation, kept in its hold's state. */
export interface ChatbotState {
  /** Walking the chosen queue's option tree (the ticket view's `chatbot`). */
  navigating: boolean;
  /** Its place in that tree. */
  optionId: number | null;
  /** Menus sent in this conversation (maxUseBotQueues). */
  menus: number;
  /** Silent until then, ISO (timeUseBotQueues after maxUseBotQueues menus). */
  pausedUntil: string | null;
}

const freshChatbot = (): ChatbotState => ({ navigating: false, optionId: null, menus: 0, pausedUntil: null });

export const findHold = (em: EntityManager, ticketId: number): Promise<ConversationHold | null> =>
  em.findOne(ConversationHold, { ticketId });

/** The holds of several tickets, by ticket id (one query). */
export const findHolds = async (em: EntityManager, ticketIds: number[]): Promise<Map<number, ConversationHold>> => {
  if (ticketIds.length === 0) return new Map();
  const holds = await em.find(ConversationHold, { ticketId: { $in: ticketIds } });
  return new Map(holds.map((h) => [h.ticketId, h]));
};

/** Gives the conversation to a holder, replacing whoever held it, with that holder's starting state. */
export const holdConversation = async (
  em: EntityManager,
  ticket: Pick<Ticket, 'id' | 'companyId'>,
  _actor: TicketActor,
  input: { holder: AutomationHolder; holderId?: number | null; state?: Record<string, unknown> },
): Promise<ConversationHold> => {
  const hold =
    (await findHold(em, ticket.id)) ??
    em.create(ConversationHold, { ticketId: ticket.id, companyId: ticket.companyId, holder: input.holder });
  hold.holder = input.holder;
  hold.holderId = input.holderId ?? null;
  hold.state = input.state ?? (input.holder === 'chatbot' ? { ...freshChatbot() } : {});
  return hold;
};

/** Whatever automation held the conversation lets go of it (written at the next flush). */
export const releaseHold = async (em: EntityManager, ticket: Pick<Ticket, 'id'>): Promise<void> => {
  const hold = await findHold(em, ticket.id);
  if (hold) em.remove(hold);
};

/**
 * The chatbot's hold of a ticket, taken when it first talks to it; null when other automation holds it.
 * Its state object is edited in place (the ORM sees the change at flush).
 */
export const chatbotHold = async (em: EntityManager, ticket: Pick<Ticket, 'id' | 'companyId'>) => {
  const hold = await findHold(em, ticket.id);
  if (!hold) {
    return em.create(ConversationHold, { ticketId: ticket.id, companyId: ticket.companyId, holder: 'chatbot', state: { ...freshChatbot() } });
  }
  if (hold.holder !== 'chatbot') return null;
  hold.state = { ...freshChatbot(), ...hold.state };
  return hold;
};

export const chatbotState = (hold: ConversationHold): ChatbotState => hold.state as unknown as ChatbotState;

/**
 * The ticket moved to another queue (or none), or an agent stepped in: the chatbot leaves the option tree;
 * its menu count and pause stay for the conversation.
 */
export const stopChatbot = async (em: EntityManager, ticket: Pick<Ticket, 'id'>): Promise<void> => {
  const hold = await findHold(em, ticket.id);
  if (hold?.holder !== 'chatbot') return;
  const state = chatbotState(hold);
  state.navigating = false;
  state.optionId = null;
};

/** The ticket view's automation fields, which the contract keeps on the ticket. */
export const holdView = (hold: HoldFields | null): Pick<TicketView, 'chatbot' | 'useIntegration' | 'integrationId' | 'promptId'> => ({
  chatbot: hold?.holder === 'chatbot' && hold.state.navigating === true,
  useIntegration: hold?.holder === 'integration',
  integrationId: hold?.holder === 'integration' ? hold.holderId : null,
  promptId: hold?.holder === 'prompt' ? hold.holderId : null,
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
    const bot = await chatbotHold(em, ticket);
    if (bot) chatbotState(bot).navigating = true;
  } else {
    await stopChatbot(em, ticket);
  }
};
