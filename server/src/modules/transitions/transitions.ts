import type { EntityManager } from '@mikro-orm/postgresql';
import { requireTenant } from '../../db/tenant.js';
import type { TicketPlacement } from '../../events/bus.js';
import type { Logger } from '../../logger.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { sendText, type ConversationDeps } from '../outbox/index.js';
import { Queue } from '../queues/queue.entity.js';
import { getSettingValue } from '../settings/index.js';
import { User } from '../users/user.entity.js';
import { Ticket, TicketTracking, type TicketStatus } from '../tickets/ticket.entity.js';
import { actorColumns, findActiveTicket, idleHold, placementOf, presentTicket, releaseHold, releaseHoldOf, type TicketActor } from '../tickets/index.js';
import { TicketLog, type TicketLogAction } from '../tickets/ticket-log.entity.js';
import { acceptedGreeting, ratingPrompt, transferNotice } from './ticket-texts.js';

/**
 * Ticket transitions, in one place (spec 01 section 4, spec 03 section 3): close, accept, return, transfer,
 * reopen and the chatbot's queue moves, each `(deps, em, ticket, actor, input)`. Whoever acts — an agent
 * through the API, a job, the chatbot, and later a flow, a campaign or an API token — goes through the same
 * function, so a rule (a greeting on accept, a rating request on close, the attendance cycle the dashboard
 * counts) holds for all of them. A transition changes the ticket and its attendance cycle and queues the
 * courtesy messages (through the outbox: nothing is sent inside the caller's transaction); the caller saves
 * and announces (`announce`), once, whatever else it changed.
 */
const actingUser = (actor: TicketActor): number | null => (actor.kind === 'user' ? actor.userId : null);

export interface TransitionDeps extends ConversationDeps {
  /** A courtesy message that could not be queued is logged, never a reason to refuse the transition. */
  log: (err: unknown, context: string) => void;
}

/** The transitions' dependencies from the app's: courtesy-message failures go to the log as warnings. */
export const transitionDeps = (deps: ConversationDeps & { logger: Logger }): TransitionDeps => ({
  channels: deps.channels,
  media: deps.media,
  events: deps.events,
  log: (err, context) => deps.logger.warn({ err }, context),
});

/** The attendance cycle in progress (the dashboard's base), or a new one. */
export const currentTracking = async (em: EntityManager, ticket: Ticket): Promise<TicketTracking> => {
  const latest = await em.findOne(TicketTracking, { ticketId: ticket.id }, { orderBy: { id: 'desc' } });
  if (latest && !latest.finishedAt) return latest;
  return em.create(TicketTracking, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    whatsappId: ticket.whatsappId,
    queueId: ticket.queueId,
    userId: ticket.userId,
  });
};

/** One line of the ticket's log: what the transition did, who did it, from where to where. */
const logTransition = (
  em: EntityManager,
  ticket: Ticket,
  actor: TicketActor,
  action: TicketLogAction,
  from: { queueId: number | null; userId: number | null },
) =>
  em.create(TicketLog, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    action,
    ...actorColumns(actor),
    fromQueueId: from.queueId,
    toQueueId: ticket.queueId,
    fromUserId: from.userId,
    toUserId: ticket.userId,
  });

const companyLanguage = async (em: EntityManager, ticket: Ticket) => (await em.findOneOrFail(Company, ticket.companyId)).language;

/** Queues an automatic text; a failure is logged and never undoes the transition. Groups get none. */
const courtesy = async (deps: TransitionDeps, em: EntityManager, ticket: Ticket, text: string) => {
  if (!text.trim() || ticket.isGroup) return;
  try {
    await sendText(deps, em, ticket, { body: text, isSystem: true });
  } catch (err) {
    deps.log(err, 'automatic message not queued');
  }
};

/**
 * Close (resolve). The attendance cycle ends. With `farewell` (the inactivity close) that text is the last
 * word; otherwise the customer is asked to rate the attendance (userRating, once per cycle, when the
 * connection is live) or gets the completion message.
 */
export const closeTicket = async (
  deps: TransitionDeps,
  em: EntityManager,
  ticket: Ticket,
  actor: TicketActor,
  input: { userId?: number | null; farewell?: string; now?: Date } = {},
): Promise<void> => {
  const now = input.now ?? new Date();
  const from = { queueId: ticket.queueId, userId: ticket.userId };
  const tracking = await currentTracking(em, ticket);
  if (input.farewell) await courtesy(deps, em, ticket, input.farewell);
  ticket.status = 'closed';
  // Whatever was automating the conversation lets go of it.
  await releaseHold(em, ticket);
  ticket.unreadMessages = 0;
  if (input.userId !== undefined && input.userId !== null) ticket.userId = input.userId;
  tracking.finishedAt = now;
  tracking.userId = ticket.userId;
  logTransition(em, ticket, actor, 'closed', from);
  await em.flush();
  if (input.farewell !== undefined) return;

  const connection = ticket.whatsappId ? await em.findOne(Whatsapp, ticket.whatsappId) : null;
  const rating = (await getSettingValue(em, 'userRating')) === 'enabled' && !ticket.isGroup && !tracking.rated;
  // Live in any server process (the one closing the ticket may not run the connection).
  if (rating && connection && (await deps.channels.runsAnywhere(connection.id))) {
    // Ask for a 1-3 rating; the completion message follows the answer (or its timeout).
    tracking.ratingAt = now;
    ticket.awaitingRatingSince = now;
    ticket.ratingAttempts = 0;
    await em.flush();
    const language = await companyLanguage(em, ticket);
    await courtesy(deps, em, ticket, [connection.ratingMessage, ratingPrompt(language)].filter((p) => p.trim()).join('\n\n'));
  } else if (connection?.complationMessage) {
    await courtesy(deps, em, ticket, connection.complationMessage);
  }
};

/**
 * Create, for a conversation the customer (or the automation) starts: the contact's open or pending ticket
 * on that connection, or a new pending one whose attendance cycle starts queued (the inbound batch statement
 * creates its tickets with the same values). Concurrent first messages meet at the partial unique index and share one ticket.
 */
export const findOrCreateActiveTicket = async (
  em: EntityManager,
  _actor: TicketActor,
  input: { contactId: number; whatsappId: number; isGroup: boolean; knownAbsent?: boolean },
): Promise<{ ticket: Ticket; created: boolean }> => {
  const existing = input.knownAbsent ? null : await findActiveTicket(em, input.contactId, input.whatsappId);
  if (existing) return { ticket: existing, created: false };
  const companyId = requireTenant(em);
  const rows: Record<string, unknown>[] = await em.execute(
    `insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, is_group, last_message, last_from_me,
        unread_messages, rating_attempts, created_at, updated_at)
     values (gen_random_uuid(), ?, 'pending', ?, ?, ?, '', false, 0, 0, now(), now())
     on conflict (contact_id, whatsapp_id) where status in ('open', 'pending') do nothing
     returning *`,
    [companyId, input.contactId, input.whatsappId, input.isGroup],
  );
  if (rows.length === 0) {
    return { ticket: (await findActiveTicket(em, input.contactId, input.whatsappId))!, created: false };
  }
  const ticket = em.map(Ticket, rows[0]);
  // The attendance cycle starts queued; a plain insert, not a flush of everything this manager holds.
  await em.execute(
    'insert into ticket_trackings (company_id, ticket_id, whatsapp_id, queued_at, rated, created_at) values (?, ?, ?, now(), false, now())',
    [companyId, ticket.id, input.whatsappId],
  );
  return { ticket, created: true };
};

/**
 * Create, for a conversation someone starts from the platform (an agent's POST /tickets, later a flow or
 * the API): open and assigned when it has a user, waiting otherwise; its attendance cycle starts now.
 * A concurrent ticket of the same contact and connection fails it with the unique index's error (23505).
 */
export const startTicket = async (
  em: EntityManager,
  actor: TicketActor,
  input: { contactId: number; whatsappId: number; isGroup: boolean; queueId: number | null; userId: number | null },
): Promise<Ticket> => {
  const now = new Date();
  const status = input.userId ? 'open' : 'pending';
  const ticket = em.create(Ticket, {
    companyId: requireTenant(em),
    contactId: input.contactId,
    whatsappId: input.whatsappId,
    queueId: input.queueId,
    userId: input.userId,
    status,
    isGroup: input.isGroup,
  });
  await em.flush();
  em.create(TicketTracking, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    whatsappId: input.whatsappId,
    queueId: ticket.queueId,
    userId: ticket.userId,
    queuedAt: now,
    startedAt: status === 'open' ? now : null,
  });
  logTransition(em, ticket, actor, 'created', { queueId: null, userId: null });
  await em.flush();
  return ticket;
};

/** Where a ticket that is not being closed goes: who has it, in which queue, on which connection. */
export interface Placement {
  status: Exclude<TicketStatus, 'closed'>;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
}

/**
 * Accept, return, transfer and reopen are one move between placements: the attendance cycle records when
 * the ticket was queued and started and by whom; a closed ticket reopens into a new cycle. The customer
 * hears a greeting when an agent accepts (sendGreetingAccepted) and a notice when moved to another queue
 * or agent (sendMsgTransfTicket).
 */
export const placeTicket = async (
  deps: TransitionDeps,
  em: EntityManager,
  ticket: Ticket,
  actor: TicketActor,
  target: Placement,
  now = new Date(),
): Promise<void> => {
  const before = placementOf(ticket);
  const action: TicketLogAction =
    ticket.status === 'closed'
      ? 'reopened'
      : ticket.status === 'pending' && target.status === 'open' && target.userId === actingUser(actor)
        ? 'accepted'
        : ticket.status === 'open' && target.status === 'pending' && target.queueId === ticket.queueId
          ? 'returned'
          : 'transferred';
  const queueChanged = target.queueId !== ticket.queueId;
  const userChanged = target.userId !== ticket.userId;
  const movingConnection = target.whatsappId !== ticket.whatsappId;

  if (ticket.status === 'closed') {
    // Reopen: a new attendance cycle; the queue stays unless the move names another.
    ticket.status = target.status;
    ticket.userId = target.userId;
    ticket.awaitingRatingSince = null;
    em.create(TicketTracking, {
      companyId: ticket.companyId,
      ticketId: ticket.id,
      whatsappId: target.whatsappId,
      queueId: ticket.queueId,
      userId: ticket.userId,
      queuedAt: target.status === 'pending' ? now : null,
      startedAt: target.status === 'open' ? now : null,
    });
  } else {
    const tracking = await currentTracking(em, ticket);
    const accepting = ticket.status === 'pending' && target.status === 'open';
    const returning = ticket.status === 'open' && target.status === 'pending';
    ticket.status = target.status;
    ticket.userId = target.userId;
    if (accepting) {
      tracking.startedAt = now;
      tracking.userId = ticket.userId;
      tracking.rated = false;
      tracking.ratingAt = null;
    }
    if (returning) {
      tracking.queuedAt = now;
      tracking.startedAt = null;
      tracking.userId = null;
    }
    if (queueChanged) {
      tracking.queueId = target.queueId;
      tracking.queuedAt = now;
    }
    if (userChanged && ticket.status !== 'pending') tracking.userId = ticket.userId;
    if (movingConnection) tracking.whatsappId = target.whatsappId;
  }
  if (queueChanged) {
    ticket.queueId = target.queueId;
    await idleHold(em, ticket, 'chatbot');
  }
  if (ticket.userId !== null) {
    // A person has the conversation now: an integration or a prompt answering it stops (spec 04 section 9).
    await idleHold(em, ticket, 'integration');
    await idleHold(em, ticket, 'prompt');
  }
  // A flow works only a waiting ticket without queue or person: one that gets either is no longer its.
  if (queueChanged || ticket.userId !== null) await releaseHoldOf(em, ticket, 'flow');
  if (movingConnection) ticket.whatsappId = target.whatsappId;
  ticket.updatedAt = now;
  logTransition(em, ticket, actor, action, before);
  await em.flush();

  // Courtesy messages once the state is saved.
  const language = await companyLanguage(em, ticket);
  if (before.status === 'pending' && ticket.status === 'open' && (await getSettingValue(em, 'sendGreetingAccepted')) === 'enabled') {
    const agent = await em.findOneOrFail(User, ticket.userId!);
    await courtesy(deps, em, ticket, acceptedGreeting(language, agent.name));
  }
  const movedToSomeoneElse = userChanged && ticket.userId !== null && ticket.userId !== actingUser(actor);
  if (before.status !== 'closed' && (queueChanged || movedToSomeoneElse) && (await getSettingValue(em, 'sendMsgTransfTicket')) === 'enabled') {
    const queue = queueChanged && ticket.queueId ? await em.findOne(Queue, ticket.queueId) : null;
    const user = movedToSomeoneElse ? await em.findOne(User, ticket.userId!) : null;
    const text = transferNotice(language, { queue: queue?.name, user: user?.name });
    if (text) await courtesy(deps, em, ticket, text);
  }
};

/**
 * The automation moves a waiting ticket to a queue (the chatbot's choice, the transfer sweep, the menu
 * limit): no agent is involved and the customer is not told (the bot says what it has to say).
 */
export const moveToQueue = async (em: EntityManager, ticket: Ticket, actor: TicketActor, queueId: number | null): Promise<void> => {
  const from = { queueId: ticket.queueId, userId: ticket.userId };
  ticket.queueId = queueId;
  logTransition(em, ticket, actor, 'queued', from);
  await idleHold(em, ticket, 'chatbot');
  await releaseHoldOf(em, ticket, 'flow');
  const tracking = await em.findOne(TicketTracking, { ticketId: ticket.id, finishedAt: null }, { orderBy: { id: 'desc' } });
  if (tracking) tracking.queueId = queueId;
};

/** Tells the clients about a ticket that moved: lists it left drop it, lists it joined add it (after commit). */
export const announce = async (
  deps: Pick<ConversationDeps, 'events'>,
  em: EntityManager,
  ticket: Ticket,
  previous?: TicketPlacement,
  actor?: TicketActor,
) => {
  deps.events.emit('ticket.changed', {
    companyId: ticket.companyId,
    ticket: await presentTicket(em, ticket),
    ...(previous ? { previous } : {}),
    ...(actor ? { actor } : {}),
  });
};
