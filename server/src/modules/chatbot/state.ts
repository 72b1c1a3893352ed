import type { EntityManager } from '@mikro-orm/postgresql';
import { holdIfFree } from '../tickets/index.js';
import type { ConversationHold } from '../tickets/conversation-hold.entity.js';
import type { Ticket } from '../tickets/ticket.entity.js';

/**
 * The chatbot's memory of a conversation, kept in its hold (tickets/holds.ts): walking a queue's option
 * tree is the hold being active, the place in the tree is its working state, and the menus sent and the
 * pause after too many are its memory, which lasts the conversation even while the bot is idle.
 */
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

/** The chatbot's hold of a ticket, taken when it first talks to it; null when other automation holds it. */
export const chatbotHold = (em: EntityManager, ticket: Pick<Ticket, 'id' | 'companyId'>) => holdIfFree(em, ticket, 'chatbot');

/** The bot's state as one object over its hold; every change is written to the hold (seen at flush). */
export const chatbotState = (hold: ConversationHold): ChatbotState => ({
  get navigating() {
    return hold.active;
  },
  set navigating(value: boolean) {
    hold.active = value;
    if (!value) hold.state = {};
  },
  get optionId() {
    return (hold.state.optionId as number | undefined) ?? null;
  },
  set optionId(value: number | null) {
    hold.state = { ...hold.state, optionId: value };
  },
  get menus() {
    return (hold.memory.menus as number | undefined) ?? 0;
  },
  set menus(value: number) {
    hold.memory = { ...hold.memory, menus: value };
  },
  get pausedUntil() {
    return (hold.memory.pausedUntil as string | undefined) ?? null;
  },
  set pausedUntil(value: string | null) {
    hold.memory = { ...hold.memory, pausedUntil: value };
  },
});
