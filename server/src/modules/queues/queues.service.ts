import { escapeLike } from '../../db/sql.js';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  DEFAULT_QUEUE_SCHEDULES,
  WEEKDAYS,
  type CreateQueueInput,
  type QueueScheduleInput,
  type UpdateQueueInput,
} from '@atrium/shared';
import { emForCompany, requireAdmin, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { Company } from '../companies/company.entity.js';
import { flowsNaming } from '../flows/flow.entity.js';
import { assertPlanAllows } from '../plans/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { byUser, placementOf, presentTickets } from '../tickets/index.js';
import { moveToQueue } from '../transitions/index.js';
import type { QueueView } from '@atrium/shared';
import { Prompt } from '../prompts/prompt.entity.js';
import { QueueIntegration } from '../queue-integrations/queue-integration.entity.js';
import { Queue, type WeeklyHours } from './queue.entity.js';

/** The integration and prompt a queue names are the company's own. */
const assertAutomation = async (em: EntityManager, input: { integrationId?: number | null; promptId?: number | null }) => {
  if (input.integrationId && !(await em.findOne(QueueIntegration, input.integrationId, { fields: ['id'] }))) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  if (input.promptId && !(await em.findOne(Prompt, input.promptId, { fields: ['id'] }))) throw new AppError('ERR_NO_PROMPT_FOUND');
};

export const presentQueue = (q: Queue): QueueView<Date> => ({
  id: q.id,
  name: q.name,
  color: q.color,
  greetingMessage: q.greetingMessage,
  outOfHoursMessage: q.outOfHoursMessage,
  orderQueue: q.orderQueue,
  integrationId: q.integrationId,
  promptId: q.promptId,
  schedules: q.schedules,
  companyId: q.companyId,
  createdAt: q.createdAt,
  updatedAt: q.updatedAt,
});


export const findQueue = async (em: EntityManager, id: number): Promise<Queue> => {
  const queue = await em.findOne(Queue, id);
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
  return queue;
};

/** The queues of a company in menu order: the caller's own, or any company's for a super user. */
export const listQueues = async (ctx: ServiceContext, companyId = ctx.actor.companyId) => {
  const queues = await emForCompany(ctx, companyId).find(
    Queue,
    { companyId },
    { orderBy: { orderQueue: 'asc nulls last', name: 'asc', id: 'asc' } },
  );
  return queues.map(presentQueue);
};

export const getQueue = async (ctx: ServiceContext, id: number) => presentQueue(await findQueue(ctx.em, id));

/**
 * Seven days, Monday first. The days sent replace those days; the others keep `base` (or the defaults).
 * The label follows weekdayEn: a client's free text could name another day.
 */
const mergeSchedules = (base: readonly WeeklyHours[], sent: QueueScheduleInput[] = []): WeeklyHours[] =>
  WEEKDAYS.map((day) => {
    const hours =
      sent.find((s) => s.weekdayEn === day.weekdayEn) ??
      base.find((s) => s.weekdayEn === day.weekdayEn) ??
      DEFAULT_QUEUE_SCHEDULES.find((s) => s.weekdayEn === day.weekdayEn)!;
    return { weekday: day.weekday, weekdayEn: day.weekdayEn, startTime: hours.startTime, endTime: hours.endTime };
  });

/** Colour and name are unique in the company, whatever their case (spec 02 section 5). */
const assertFree = async (em: EntityManager, input: { name?: string; color?: string }, exceptId?: number) => {
  if (input.color) {
    const other = await em.findOne(Queue, { color: { $ilike: escapeLike(input.color) } });
    if (other && other.id !== exceptId) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  }
  if (input.name) {
    const other = await em.findOne(Queue, { name: { $ilike: escapeLike(input.name) } });
    if (other && other.id !== exceptId) throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS');
  }
};

/**
 * With more than one queue the customer picks one from a menu and is greeted by it, so each queue needs a
 * greeting (spec 02 section 5). `others`: the company's queues besides the one being saved.
 */
const assertGreeting = (others: number, greeting: string | undefined) => {
  if (others >= 1 && greeting !== undefined && !greeting.trim()) throw new AppError('ERR_WAPP_GREETING_REQUIRED');
};

/** A concurrent save passed the checks above; the unique indexes still answer the right code. */
const uniqueRace = (err: unknown): never => {
  if (err instanceof UniqueConstraintViolationException) {
    throw new AppError(err.message.includes('color') ? 'ERR_QUEUE_COLOR_ALREADY_EXISTS' : 'ERR_QUEUE_NAME_ALREADY_EXISTS');
  }
  throw err;
};

export const createQueue = async (ctx: ServiceContext, input: CreateQueueInput) => {
  requireAdmin(ctx.actor);
  const companyId = ctx.actor.companyId;
  const queue = await ctx.em
    .transactional(async (tx) => {
      // The company row is locked so that concurrent creations count one after another against the plan.
      await tx.findOneOrFail(Company, companyId, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const existing = await tx.count(Queue, {});
      await assertPlanAllows(tx, companyId, 'queues', existing);
      assertGreeting(existing, input.greetingMessage);
      await assertFree(tx, input);
      await assertAutomation(tx, input);
      const created = tx.create(Queue, {
        companyId,
        name: input.name,
        color: input.color,
        greetingMessage: input.greetingMessage,
        outOfHoursMessage: input.outOfHoursMessage,
        orderQueue: input.orderQueue,
        integrationId: input.integrationId,
        promptId: input.promptId,
        schedules: mergeSchedules(DEFAULT_QUEUE_SCHEDULES, input.schedules),
      });
      await tx.flush();
      return created;
    })
    .catch(uniqueRace);
  const shown = presentQueue(queue);
  ctx.events.emit('queue.changed', { companyId, action: 'create', queue: shown });
  return shown;
};

export const updateQueue = async (ctx: ServiceContext, id: number, input: UpdateQueueInput) => {
  requireAdmin(ctx.actor);
  const em = ctx.em;
  const queue = await findQueue(em, id);
  // Only a greeting that is sent is checked: a queue saved before the company had a second one stays editable.
  if (input.greetingMessage !== undefined) assertGreeting((await em.count(Queue, {})) - 1, input.greetingMessage);
  await assertFree(em, input, id);
  await assertAutomation(em, input);
  const { schedules, ...fields } = input;
  em.assign(queue, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
  if (schedules) queue.schedules = mergeSchedules(queue.schedules, schedules);
  await em.flush().catch(uniqueRace);
  const shown = presentQueue(queue);
  ctx.events.emit('queue.changed', { companyId: queue.companyId, action: 'update', queue: shown });
  return shown;
};

/**
 * Removes a queue. Its tickets stay, without a queue (and out of its option menu); its links to users
 * and connections go with it. Conversations in progress move to the queue-less lists, live.
 */
export const deleteQueue = async (ctx: ServiceContext, id: number) => {
  requireAdmin(ctx.actor);
  const em = ctx.em;
  const queue = await findQueue(em, id);
  // A flow's ticket node moving customers here would hand them to no queue instead, silently.
  const flows = await flowsNaming(em, { type: 'ticket', data: { queue: { id } } });
  if (flows.length > 0) throw new AppError('ERR_QUEUE_USED_BY_FLOWS', { flows });
  const active = await em.find(Ticket, { queueId: id, status: { $in: ['open', 'pending'] } });
  const previous = new Map(active.map((t) => [t.id, placementOf(t)]));
  await em.transactional(async (tx) => {
    // Conversations in progress leave the queue as a transfer to no queue; closed ones keep no reference.
    for (const ticket of active) {
      await moveToQueue(tx, ticket, byUser(ctx.actor.userId), null);
    }
    await tx.flush();
    await tx.nativeUpdate(Ticket, { queueId: id }, { queueId: null });
    await tx.remove(await findQueue(tx, id)).flush();
  });
  ctx.events.emit('queue.deleted', { companyId: queue.companyId, queueId: id });
  if (active.length === 0) return;
  for (const ticket of await presentTickets(em.fork(), active.map((t) => t.id))) {
    ctx.events.emit('ticket.changed', { companyId: ticket.companyId, ticket, previous: previous.get(ticket.id), actor: byUser(ctx.actor.userId) });
  }
};
