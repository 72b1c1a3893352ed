import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SETTINGS } from '@atrium/shared';
import { intArray } from '../../db/sql.js';
import { forCompany, requireTenant } from '../../db/tenant.js';
import type { TicketPlacement } from '../../events/bus.js';
import type { Logger } from '../../logger.js';
import type { InboundFacts, InboundStep } from '../../pipeline/steps/step.js';
import { Company, CompanySchedule } from '../companies/company.entity.js';
import { Whatsapp, WhatsappQueue } from '../connections/whatsapp.entity.js';
import { Message } from '../messages/message.entity.js';
import { sendText, type ConversationDeps } from '../outbox/index.js';
import { QueueOption } from '../queue-options/queue-option.entity.js';
import { optionsAt } from '../queue-options/index.js';
import { Queue } from '../queues/queue.entity.js';
import { getSettingValue } from '../settings/index.js';
import type { ConversationHold } from '../tickets/conversation-hold.entity.js';
import { announce, moveToQueue } from '../transitions/index.js';
import { CHATBOT, holdView, placementOf, type TicketActor } from '../tickets/index.js';
import { chatbotHold, chatbotState } from './state.js';
import { Ticket, TicketTracking } from '../tickets/ticket.entity.js';
import { isWithinHours } from './hours.js';
import { optionMenu, queueClosed, queueMenu, renderedFrom, topOptionsMenu } from './texts.js';
import { runSteps } from '../../pipeline/steps/step.js';

/** What the chatbot and its timed sweeps need: sending (channels, media, events) plus the database. */
export interface ChatbotDeps extends ConversationDeps {
  systemEm: () => EntityManager;
  logger: Logger;
}

/**
 * The queue chatbot (spec 03 section 5 with its notes), run by the message pipeline after a customer's
 * message is stored and announced. Per message, in order: "#" back to the main menu, company hours,
 * queue selection, the chosen queue's hours, the greeting of a connection without queues, the option tree.
 * It only talks to tickets nobody has taken (no user), never to groups or to our own messages.
 */
export const queueChatbotStep = (deps: ChatbotDeps, now = () => new Date()): InboundStep => ({
  name: 'queue chatbot',
  candidates: async (batch) => {
    const customers = batch.filter((f) => !f.fromMe && !f.isGroup);
    const wanted: InboundFacts[] = [];
    for (const companyId of new Set(customers.map((f) => f.companyId))) {
      const facts = customers.filter((f) => f.companyId === companyId);
      const eligible = await ticketsBotMayActOn(
        forCompany(deps.systemEm(), companyId),
        facts.map((f) => f.ticketId),
      );
      wanted.push(...facts.filter((f) => eligible.has(f.ticketId)));
    }
    return wanted;
  },
  run: async (facts) => {
    await answer(deps, forCompany(deps.systemEm(), facts.companyId), facts, now());
    return true;
  },
});

/** Where a ticket was and whether the bot ran on it, to tell the clients when it moved. */
interface Outcome {
  before: TicketPlacement;
  chatbotBefore: boolean;
  ticket: Ticket;
  hold: ConversationHold;
}

/**
 * One read that rules out most messages before a transaction is opened: a ticket someone took, or one
 * the bot has nothing to say to (no schedule rule, and a queue already chosen without a menu or a
 * connection with neither queues nor a greeting). Every inbound message passes here, a batch at a time.
 * Answers the tickets the bot may talk to.
 */
const ticketsBotMayActOn = async (em: EntityManager, ticketIds: number[]): Promise<Set<number>> => {
  const rows: {
    id: number;
    taken: boolean;
    queue_id: number | null;
    navigating: boolean;
    has_queues: boolean;
    has_greeting: boolean;
    schedule_type: string | null;
  }[] = await em.execute(
    `select t.id, (t.user_id is not null or t.status = 'closed' or t.whatsapp_id is null or coalesce(h.holder <> 'chatbot', false)) as taken,
            t.queue_id, coalesce(h.holder = 'chatbot' and h.active, false) as navigating,
            exists (select 1 from whatsapp_queues wq where wq.whatsapp_id = t.whatsapp_id) as has_queues,
            coalesce((select trim(w.greeting_message) <> '' from whatsapps w where w.id = t.whatsapp_id), false) as has_greeting,
            (select s.value from settings s where s.company_id = t.company_id and s.key = 'scheduleType') as schedule_type
       from tickets t left join conversation_holds h on h.ticket_id = t.id
      where t.id = any(?::int[]) and t.company_id = ?`,
    [intArray(ticketIds), requireTenant(em)],
  );
  const mayAct = (row: (typeof rows)[number]) => {
    if (row.taken) return false;
    if ((row.schedule_type ?? SETTINGS.scheduleType.default) !== 'disabled') return true;
    if (row.queue_id !== null) return row.navigating;
    return row.has_queues || row.has_greeting;
  };
  return new Set(rows.filter(mayAct).map((r) => r.id));
};

/** Runs the bot on a batch of stored inbound messages, in order (the step alone; tests and tools). */
export const runChatbot = (deps: ChatbotDeps, batch: InboundFacts[], now = new Date()): Promise<void> =>
  runSteps([queueChatbotStep(deps, () => now)], batch, deps.logger);

const answer = async (deps: ChatbotDeps, root: EntityManager, facts: InboundFacts, now: Date): Promise<void> => {
  // The ticket row stays locked while the bot answers, so two messages of one ticket never run it at once.
  const outcome = await root.transactional(async (em): Promise<Outcome | null> => {
    const ticket = await em.findOne(Ticket, facts.ticketId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!ticket || ticket.status === 'closed' || ticket.userId !== null || ticket.whatsappId === null) return null;
    // Another holder (an integration, a prompt, a flow) has the conversation.
    const hold = await chatbotHold(em, ticket);
    if (!hold) return null;
    const connection = await em.findOne(Whatsapp, ticket.whatsappId);
    if (!connection) return null;
    const outcome = { before: placementOf(ticket), chatbotBefore: holdView(hold).chatbot, ticket, hold };
    const company = await em.findOneOrFail(Company, ticket.companyId);
    await new BotRun(deps, em, ticket, hold, connection, company, now).handle(facts.body);
    await em.flush();
    return outcome;
  });
  if (!outcome) return;
  const { before, chatbotBefore, ticket, hold } = outcome;
  if (before.queueId === ticket.queueId && before.status === ticket.status && chatbotBefore === holdView(hold).chatbot) return;
  await announceTicket(deps, ticket, before, CHATBOT);
};

/** Tells the clients about a ticket the platform moved: lists it left drop it, lists it joined add it. */
export const announceTicket = async (deps: ChatbotDeps, ticket: Ticket, previous: TicketPlacement, actor: TicketActor) => {
  const em = forCompany(deps.systemEm(), ticket.companyId);
  const fresh = await em.findOne(Ticket, ticket.id);
  if (fresh) await announce(deps, em, fresh, previous, actor);
};

class BotRun {
  private queues: Queue[] = [];
  private scheduleType = 'disabled';

  constructor(
    private readonly deps: ChatbotDeps,
    private readonly em: EntityManager,
    private readonly ticket: Ticket,
    private readonly hold: ConversationHold,
    private readonly connection: Whatsapp,
    private readonly company: Company,
    private readonly now: Date,
  ) {}

  /**
   * The bot's memory of this conversation, its hold's state, edited in place. Read it afresh after every
   * await: a flush may replace the object.
   */
  private get bot() {
    return chatbotState(this.hold);
  }

  private get lang() {
    return this.company.language;
  }

  async handle(text: string): Promise<void> {
    const { ticket, connection } = this;
    const body = text.trim();

    // Silent while paused after too many menus; afterwards the count starts again.
    if (this.bot.pausedUntil) {
      if (new Date(this.bot.pausedUntil) > this.now) return;
      this.bot.pausedUntil = null;
      this.bot.menus = 0;
    }
    // Stopped for the rest of the conversation (too many menus and no pause configured).
    if (connection.maxUseBotQueues > 0 && this.bot.menus > connection.maxUseBotQueues) return;

    this.queues = await this.connectionQueues();

    // "#" goes back to the main menu, but only while the bot is talking.
    if (body === '#' && (this.bot.navigating || (ticket.queueId === null && this.queues.length > 0))) {
      // Leaves the option tree too.
      await moveToQueue(this.em, ticket, CHATBOT, null);
    }

    const scheduleType = (this.scheduleType = await getSettingValue(this.em, 'scheduleType'));
    if (scheduleType === 'company' && !(await this.companyOpen())) {
      await this.notifyOnce(connection.outOfHoursMessage);
      return;
    }
    if (scheduleType === 'queue' && ticket.queueId !== null && !(await this.queueOpen(ticket.queueId))) return;

    if (ticket.queueId === null && this.queues.length > 0) {
      const next = await this.selectQueue(body);
      if (next === 'done') return;
      // The queue just chosen may be closed now.
      if (scheduleType === 'queue' && ticket.queueId !== null && !(await this.queueOpen(ticket.queueId))) return;
    }

    if (this.queues.length === 0 && ticket.queueId === null) {
      // A connection without queues greets once per conversation.
      await this.notifyOnce(connection.greetingMessage);
      return;
    }

    if (ticket.queueId !== null && this.bot.navigating) await this.navigate(body);
  }

  /** The connection's queues in menu order. */
  private async connectionQueues(): Promise<Queue[]> {
    const links = await this.em.find(WhatsappQueue, { whatsappId: this.connection.id });
    if (links.length === 0) return [];
    return this.em.find(
      Queue,
      { id: { $in: links.map((l) => l.queueId) } },
      { orderBy: { orderQueue: 'asc nulls last', name: 'asc', id: 'asc' } },
    );
  }

  private async hasOptions(queueId: number) {
    return (await this.em.count(QueueOption, { queueId, parentId: null })) > 0;
  }

  private async companyOpen() {
    const week = await this.em.find(CompanySchedule, { companyId: this.company.id });
    return isWithinHours(week, this.now, this.company.timezone);
  }

  /** Checks the queue's hours (scheduleType queue); outside them, tells the customer once and stops. */
  private async queueOpen(queueId: number) {
    const queue = await this.em.findOne(Queue, queueId);
    if (!queue || !queue.outOfHoursMessage.trim() || isWithinHours(queue.schedules, this.now, this.company.timezone)) return true;
    await this.notifyOnce(queue.outOfHoursMessage);
    return false;
  }

  private say(body: string) {
    return sendText(this.deps, this.em, this.ticket, { body, isSystem: true, source: { kind: 'chatbot', id: null } });
  }

  /** Sends a notice (out of hours, the greeting without queues) at most once per attendance cycle. */
  private async notifyOnce(template: string) {
    if (!template.trim()) return;
    const tracking = await this.em.findOne(TicketTracking, { ticketId: this.ticket.id }, { orderBy: { id: 'desc' } });
    const since = tracking && !tracking.finishedAt ? tracking.createdAt : this.ticket.createdAt;
    const sent = await this.em.find(
      Message,
      { ticketId: this.ticket.id, fromMe: true, isSystem: true, createdAt: { $gte: since } },
      { fields: ['body'] },
    );
    if (sent.some((m) => renderedFrom(template, m.body))) return;
    await this.say(template);
  }

  /**
   * Sends a menu, counting it (maxUseBotQueues). Past the limit the bot stops instead: the ticket stays
   * waiting (moved to transferQueueId if it has no queue yet) and the bot is silent for timeUseBotQueues
   * minutes, or for the rest of the conversation without a pause time.
   */
  private async menu(body: string) {
    const { ticket, connection } = this;
    if (connection.maxUseBotQueues > 0 && this.bot.menus >= connection.maxUseBotQueues) {
      if (ticket.queueId === null && connection.transferQueueId !== null) await moveToQueue(this.em, ticket, CHATBOT, connection.transferQueueId);
      const bot = this.bot;
      bot.menus = connection.maxUseBotQueues + 1;
      bot.navigating = false;
      bot.optionId = null;
      if (connection.timeUseBotQueues > 0) bot.pausedUntil = new Date(this.now.getTime() + connection.timeUseBotQueues * 60_000).toISOString();
      return;
    }
    this.bot.menus += 1;
    await this.say(body);
  }

  private async assignQueue(queue: Queue) {
    await moveToQueue(this.em, this.ticket, CHATBOT, queue.id);
    const navigating = await this.hasOptions(queue.id);
    this.bot.navigating = navigating;
  }

  /** 'continue' when the same message is still to be read as an option of the chosen queue. */
  private async selectQueue(body: string): Promise<'done' | 'continue'> {
    const { ticket, connection, queues } = this;
    if (queues.length === 1) {
      if ((await getSettingValue(this.em, 'sendGreetingMessageOneQueues')) === 'enabled' && connection.greetingMessage.trim()) {
        await this.say(connection.greetingMessage);
      }
      await this.assignQueue(queues[0]);
      return this.bot.navigating ? 'continue' : 'done';
    }

    const position = /^\d{1,4}$/.test(body) ? Number(body) : 0;
    const queue = position >= 1 && position <= queues.length ? queues[position - 1] : undefined;
    if (!queue) {
      await this.menu(queueMenu(connection.greetingMessage, queues));
      return 'done';
    }
    await this.assignQueue(queue);
    if (!this.bot.navigating) {
      // A queue without options answers with its own hours, whatever scheduleType says.
      if (queue.outOfHoursMessage.trim() && !isWithinHours(queue.schedules, this.now, this.company.timezone)) {
        await moveToQueue(this.em, ticket, CHATBOT, null);
        await this.say(queueClosed(this.lang, queue.outOfHoursMessage));
        return 'done';
      }
      if (queue.greetingMessage.trim()) await this.say(queue.greetingMessage);
      return 'done';
    }
    // Its menu follows, unless the queue is closed (scheduleType queue).
    if (this.scheduleType === 'queue' && !(await this.queueOpen(queue.id))) return 'done';
    await this.sendTopMenu(queue);
    return 'done';
  }

  private async sendTopMenu(queue: Queue) {
    this.bot.optionId = null;
    const top = await optionsAt(this.em, queue.id, null);
    if (top.length === 0) {
      this.bot.navigating = false;
      return;
    }
    await this.menu(topOptionsMenu(this.lang, queue.greetingMessage, top));
  }

  /** The option tree: a key enters an option, "0" goes up, anything else repeats the current menu. */
  private async navigate(body: string) {
    const { ticket } = this;
    const queue = await this.em.findOne(Queue, ticket.queueId!);
    if (!queue) return;
    const key = body.toLowerCase();
    const optionId = this.bot.optionId;
    const current = optionId ? await this.em.findOne(QueueOption, { id: optionId, queueId: queue.id }) : null;

    if (!current) {
      const top = await optionsAt(this.em, queue.id, null);
      const chosen = top.find((o) => o.option.toLowerCase() === key);
      if (chosen) return this.enter(chosen);
      return this.sendTopMenu(queue);
    }

    if (key === '0') {
      const parent = current.parentId ? await this.em.findOne(QueueOption, { id: current.parentId, queueId: queue.id }) : null;
      return parent ? this.enter(parent) : this.sendTopMenu(queue);
    }
    const children = await optionsAt(this.em, queue.id, current.id);
    if (children.length === 0) {
      this.bot.navigating = false;
      return;
    }
    // A single sub-option takes any answer.
    const chosen = children.find((o) => o.option.toLowerCase() === key) ?? (children.length === 1 ? children[0] : undefined);
    if (chosen) return this.enter(chosen);
    await this.menu(optionMenu(this.lang, current.message, children));
  }

  /** Entering an option sends its message with its sub-options; a leaf is sent once and ends the bot. */
  private async enter(option: QueueOption) {
    this.bot.optionId = option.id;
    const children = await optionsAt(this.em, option.queueId, option.id);
    if (children.length === 0) {
      this.bot.navigating = false;
      if (option.message.trim()) await this.say(option.message);
      return;
    }
    await this.menu(optionMenu(this.lang, option.message, children));
  }
}
