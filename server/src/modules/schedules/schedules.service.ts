import path from 'node:path';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  SCHEDULES_PAGE_SIZE,
  SCHEDULE_MEDIA_EXTENSIONS,
  isScheduleMediaName,
  type CreateScheduleInput,
  type ListSchedulesQuery,
  type UpdateScheduleInput,
} from '@atrium/shared';
import { isAdmin, pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { Scheduler } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { MediaStore } from '../../media/storage.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { assertPlanFeature } from '../plans/index.js';
import { Schedule } from './schedule.entity.js';
import { presentSchedule } from './schedule.presenter.js';
import { SEND_JOB, type SendJobData } from './schedules.sender.js';

/**
 * Scheduled messages: any user of the company sees and creates them; changing one is for admins (spec 03
 * section 13); deleting one, and its attachment, is for its creator or an admin. A sent schedule is history
 * and cannot be changed.
 */
export interface ScheduleDeps {
  media: MediaStore;
  scheduler: Pick<Scheduler, 'schedule' | 'agenda'>;
  logger: Logger;
}


const contactOf = (em: EntityManager, schedule: Schedule) => em.findOne(Contact, schedule.contactId);

const present = async (ctx: ServiceContext, deps: ScheduleDeps, schedule: Schedule) =>
  presentSchedule(deps.media, schedule, await contactOf(ctx.em, schedule));

const announce = async (ctx: ServiceContext, deps: ScheduleDeps, schedule: Schedule, action: 'create' | 'update') => {
  const record = await present(ctx, deps, schedule);
  ctx.events.emit('schedule.changed', { companyId: schedule.companyId, action, record });
  return record;
};

/** Replaces the schedule's send job by one at its sendAt. The minute sweep covers a job that could not be stored. */
const queueSend = async (deps: ScheduleDeps, schedule: Schedule) => {
  try {
    const data: SendJobData = { companyId: schedule.companyId, scheduleId: schedule.id };
    await deps.scheduler.agenda.cancel({ name: SEND_JOB, data });
    await deps.scheduler.schedule(schedule.sendAt, SEND_JOB, data);
  } catch (err) {
    deps.logger.warn({ err, scheduleId: schedule.id }, 'schedule send job not stored; the sweep will send it');
  }
};

const dropSend = async (deps: ScheduleDeps, companyId: number, id: number) => {
  await deps.scheduler.agenda
    .cancel({ name: SEND_JOB, data: { companyId, scheduleId: id } satisfies SendJobData })
    .catch((err: unknown) => deps.logger.warn({ err, scheduleId: id }, 'schedule send job not cancelled'));
};

const assertContact = async (em: EntityManager, contactId: number) => {
  if (!(await em.findOne(Contact, contactId, { fields: ['id'] }))) throw new AppError('ERR_NO_CONTACT_FOUND');
};

const assertConnection = async (em: EntityManager, whatsappId: number | null | undefined) => {
  if (whatsappId && !(await em.findOne(Whatsapp, whatsappId, { fields: ['id'] }))) throw new AppError('ERR_NO_WAPP_FOUND');
};

/** A schedule being sent or already sent cannot change. */
const assertChangeable = (schedule: Schedule) => {
  if (schedule.status === 'ENVIADA' || schedule.sentAt) throw new AppError('ERR_SCHEDULE_ALREADY_SENT');
  if (schedule.status === 'AGENDADA') throw new AppError('ERR_CONFLICT', { reason: 'sending' });
};

const findSchedule = async (em: EntityManager, id: number, lock = false) => {
  const schedule = await em.findOne(Schedule, id, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!schedule) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  return schedule;
};

const assertOwnerOrAdmin = (ctx: ServiceContext, schedule: Schedule) => {
  if (schedule.userId !== ctx.actor.userId && !isAdmin(ctx.actor)) throw new AppError('ERR_NO_PERMISSION');
};

/** GET /schedules: 20 per page by sendAt, searching the body and the contact's name. */
export const listSchedules = async (ctx: ServiceContext, deps: ScheduleDeps, query: ListSchedulesQuery) => {
  const companyId = requireTenant(ctx.em);
  const where = ['s.company_id = ?'];
  const params: unknown[] = [companyId];
  if (query.searchParam) {
    const term = `%${escapeLike(query.searchParam)}%`;
    where.push('(s.body ilike ? or c.name ilike ?)');
    params.push(term, term);
  }
  if (query.contactId) {
    where.push('s.contact_id = ?');
    params.push(query.contactId);
  }
  if (query.sendAtFrom) {
    where.push('s.send_at >= ?');
    params.push(query.sendAtFrom);
  }
  if (query.sendAtTo) {
    where.push('s.send_at < ?');
    params.push(query.sendAtTo);
  }
  const from = `from schedules s join contacts c on c.id = s.contact_id and c.company_id = s.company_id where ${where.join(' and ')}`;
  const [{ count }] = await ctx.em.execute<{ count: string }[]>(`select count(*) as count ${from}`, params);
  const rows = await ctx.em.execute<Record<string, unknown>[]>(
    `select s.* ${from} order by s.send_at, s.id limit ? offset ?`,
    [...params, SCHEDULES_PAGE_SIZE, (query.pageNumber - 1) * SCHEDULES_PAGE_SIZE],
  );
  const schedules = rows.map((row) => ctx.em.map(Schedule, row));
  const contacts = await ctx.em.find(Contact, { id: { $in: [...new Set(schedules.map((s) => s.contactId))] } });
  const byId = new Map(contacts.map((c) => [c.id, c]));
  const page = pageOf(
    schedules.map((s) => presentSchedule(deps.media, s, byId.get(s.contactId) ?? null)),
    Number(count),
    query.pageNumber,
    SCHEDULES_PAGE_SIZE,
  );
  return { schedules: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getSchedule = async (ctx: ServiceContext, deps: ScheduleDeps, id: number) =>
  present(ctx, deps, await findSchedule(ctx.em, id));

/** POST /schedules: any user, for a contact (and optionally a connection) of their company. */
export const createSchedule = async (ctx: ServiceContext, deps: ScheduleDeps, input: CreateScheduleInput) => {
  const companyId = requireTenant(ctx.em);
  await assertPlanFeature(ctx.em, companyId, 'useSchedules');
  await assertContact(ctx.em, input.contactId);
  await assertConnection(ctx.em, input.whatsappId);
  const schedule = ctx.em.create(Schedule, {
    companyId,
    body: input.body,
    contactId: input.contactId,
    sendAt: input.sendAt,
    whatsappId: input.whatsappId ?? null,
    userId: ctx.actor.userId,
  });
  await ctx.em.flush();
  await queueSend(deps, schedule);
  return announce(ctx, deps, schedule, 'create');
};

/**
 * PUT /schedules/{id}: admins only (spec 03 section 13). Any change re-arms the schedule: PENDENTE with
 * fresh attempts (so fixing a failed one sends it again), and its job moves to the new sendAt.
 */
export const updateSchedule = async (ctx: ServiceContext, deps: ScheduleDeps, id: number, input: UpdateScheduleInput) => {
  requireAdmin(ctx.actor);
  // The row lock keeps a send from claiming the schedule while it changes.
  await ctx.em.transactional(async (tx) => {
    const row = await findSchedule(tx, id, true);
    assertChangeable(row);
    if (input.contactId !== undefined) await assertContact(tx, input.contactId);
    await assertConnection(tx, input.whatsappId);
    if (input.body !== undefined) row.body = input.body;
    if (input.contactId !== undefined) row.contactId = input.contactId;
    if (input.sendAt !== undefined) row.sendAt = input.sendAt;
    if (input.whatsappId !== undefined) row.whatsappId = input.whatsappId;
    row.status = 'PENDENTE';
    row.attempts = 0;
    row.error = null;
  });
  const schedule = await findSchedule(ctx.em.fork(), id);
  await queueSend(deps, schedule);
  return announce(ctx, deps, schedule, 'update');
};

/** DELETE /schedules/{id}: its creator or an admin; the job and the attachment go with it. */
export const deleteSchedule = async (ctx: ServiceContext, deps: ScheduleDeps, id: number) => {
  const schedule = await findSchedule(ctx.em, id);
  assertOwnerOrAdmin(ctx, schedule);
  const { companyId, mediaPath } = schedule;
  await ctx.em.remove(schedule).flush();
  await dropSend(deps, companyId, id);
  if (mediaPath) await deps.media.remove(companyId, mediaPath).catch(() => undefined);
  ctx.events.emit('schedule.deleted', { companyId, id });
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the bytes are, whatever the client called them: only PNG and JPEG pictures are attachments. */
const pictureType = (data: Buffer): 'image/png' | 'image/jpeg' | null => {
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  return null;
};

/** POST /schedules/{id}/media-upload: a checked picture, stored under a random name; it replaces any earlier one. */
export const attachScheduleMedia = async (
  ctx: ServiceContext,
  deps: ScheduleDeps,
  id: number,
  file: { data: Buffer; mimetype: string; filename: string },
) => {
  const current = await findSchedule(ctx.em, id);
  assertOwnerOrAdmin(ctx, current);
  assertChangeable(current);
  const mimetype = pictureType(file.data);
  const extension = path.extname(file.filename).toLowerCase();
  if (!mimetype || (extension && !isScheduleMediaName(file.filename))) {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { file: file.filename, accepted: SCHEDULE_MEDIA_EXTENSIONS });
  }
  const stored = await deps.media.save(current.companyId, { ...file, mimetype });
  let previous: string | null = null;
  try {
    await ctx.em.transactional(async (tx) => {
      const row = await findSchedule(tx, id, true);
      assertChangeable(row);
      previous = row.mediaPath;
      row.mediaPath = stored.fileName;
      row.mediaName = stored.mediaName;
    });
  } catch (err) {
    await deps.media.remove(current.companyId, stored.fileName).catch(() => undefined);
    throw err;
  }
  if (previous) await deps.media.remove(current.companyId, previous).catch(() => undefined);
  return announce(ctx, deps, await findSchedule(ctx.em.fork(), id), 'update');
};

/** DELETE /schedules/{id}/media-upload: the attachment goes; the message is sent as text. */
export const removeScheduleMedia = async (ctx: ServiceContext, deps: ScheduleDeps, id: number) => {
  assertOwnerOrAdmin(ctx, await findSchedule(ctx.em, id));
  let previous: string | null = null;
  await ctx.em.transactional(async (tx) => {
    const row = await findSchedule(tx, id, true);
    assertChangeable(row);
    previous = row.mediaPath;
    row.mediaPath = null;
    row.mediaName = null;
  });
  const schedule = await findSchedule(ctx.em.fork(), id);
  if (previous) await deps.media.remove(schedule.companyId, previous).catch(() => undefined);
  return announce(ctx, deps, schedule, 'update');
};
