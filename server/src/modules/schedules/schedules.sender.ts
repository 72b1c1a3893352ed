import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Agenda } from 'agenda';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { sendMedia, sendText, type ConversationDeps } from '../outbox/index.js';
import { findOrCreateActiveTicket } from '../transitions/index.js';
import { SYSTEM } from '../tickets/index.js';
import { Schedule } from './schedule.entity.js';
import { presentSchedule } from './schedule.presenter.js';

/**
 * Sending scheduled messages (spec 03 section 13 and spec 04 section 15, with their notes): one job per
 * schedule at its sendAt, plus a sweep every minute that sends whatever is overdue (a job lost or a server
 * down at the time) and retries failed sends after a backoff. A conditional claim makes each send happen
 * once, however many jobs and sweeps reach the same schedule.
 */
export interface ScheduleSenderDeps extends ConversationDeps {
  systemEm: () => EntityManager;
  logger: Logger;
}

export const SEND_JOB = 'schedules:send';
export const CATCH_UP_JOB = 'schedules:catch-up';
export type SendJobData = { companyId: number; scheduleId: number };

/** Attempts before a schedule becomes ERRO. */
export const SCHEDULE_MAX_ATTEMPTS = 3;
/** Seconds to wait after failed attempt 1, 2, ... before the next one. */
export const SCHEDULE_RETRY_DELAYS_S = [60, 300] as const;
/** A send still AGENDADA after this long was cut off (a crash): it counts as a failed attempt. */
export const SENDING_LEASE_S = 600;
/** Rows one sweep handles; the rest wait for the next minute. */
const SWEEP_BATCH = 200;

const retryDelaySql = `case attempts ${SCHEDULE_RETRY_DELAYS_S.map((s, i) => `when ${i + 1} then ${s}`).join(' ')} else ${SCHEDULE_RETRY_DELAYS_S.at(-1)} end`;
/**
 * Due to be sent: pending, its time has come (a second's grace for timer jitter, so a job that fires at
 * sendAt is not turned away), and, after a failed attempt, the backoff has passed.
 */
const DUE = `status = 'PENDENTE' and sent_at is null and send_at <= now() + interval '1 second'
  and (attempts = 0 or updated_at <= now() - make_interval(secs => ${retryDelaySql}))`;

const MEDIA_MIME: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' };

/** Takes the schedule for this send: only one caller gets a row back. */
const claim = async (em: EntityManager, companyId: number, id: number): Promise<boolean> => {
  const rows = await em.execute<{ id: number }[]>(
    `update schedules set status = 'AGENDADA', attempts = attempts + 1, updated_at = now()
     where id = ? and company_id = ? and ${DUE} returning id`,
    [id, companyId],
  );
  return rows.length > 0;
};

/** Queues it on the schedule's connection (else the company default), on the contact's active ticket or a new one. */
const deliver = async (deps: ScheduleSenderDeps, em: EntityManager, schedule: Schedule): Promise<number> => {
  const contact = await em.findOne(Contact, schedule.contactId);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  const connection = schedule.whatsappId
    ? await em.findOne(Whatsapp, schedule.whatsappId)
    : await em.findOne(Whatsapp, { isDefault: true });
  if (!connection) throw new AppError(schedule.whatsappId ? 'ERR_NO_WAPP_FOUND' : 'ERR_NO_DEF_WAPP_FOUND');
  // Handed to the outbox, which sends as soon as the connection is up (at start-up the catch-up runs
  // before the sessions have connected: the message waits for its connection instead of failing).
  const media = schedule.mediaPath ? await deps.media.read(schedule.companyId, schedule.mediaPath) : null;

  const { ticket } = await findOrCreateActiveTicket(em, SYSTEM, { contactId: contact.id, whatsappId: connection.id, isGroup: contact.isGroup });
  if (media && schedule.mediaPath) {
    const mimetype = MEDIA_MIME[path.extname(schedule.mediaPath).toLowerCase()] ?? 'image/jpeg';
    await sendMedia(
      deps,
      em,
      ticket,
      { data: media, mimetype, filename: schedule.mediaName ?? schedule.mediaPath, caption: schedule.body },
      { userId: schedule.userId, source: { kind: 'schedule', id: schedule.id } },
    );
  } else {
    // Variables ({{name}}...) are filled by sendText, as for an agent's message.
    await sendText(deps, em, ticket, { body: schedule.body, userId: schedule.userId, source: { kind: 'schedule', id: schedule.id } });
  }
  return ticket.id;
};

const announce = async (deps: ScheduleSenderDeps, em: EntityManager, id: number) => {
  const schedule = await em.fork().findOne(Schedule, id);
  if (!schedule) return;
  const contact = await em.fork().findOne(Contact, schedule.contactId);
  deps.events.emit('schedule.changed', {
    companyId: schedule.companyId,
    action: 'update',
    record: presentSchedule(deps.media, schedule, contact),
  });
};

export type SendOutcome = 'sent' | 'failed' | 'skipped';

/**
 * One attempt at sending schedule `id`, if it is due and nobody else is sending it. Success stores sentAt,
 * ENVIADA and the ticket; a failure leaves it PENDENTE for a retry, or ERRO with the reason after the last.
 */
export const sendSchedule = async (deps: ScheduleSenderDeps, companyId: number, id: number): Promise<SendOutcome> => {
  const em = forCompany(deps.systemEm(), companyId);
  if (!(await claim(em, companyId, id))) return 'skipped';
  const schedule = await em.findOne(Schedule, id);
  if (!schedule) return 'skipped';
  let outcome: SendOutcome;
  try {
    const ticketId = await deliver(deps, em, schedule);
    await em.execute(
      `update schedules set status = 'ENVIADA', sent_at = now(), ticket_id = ?, error = null, updated_at = now()
       where id = ? and company_id = ? and status = 'AGENDADA'`,
      [ticketId, id, companyId],
    );
    outcome = 'sent';
  } catch (err) {
    const reason = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
    deps.logger[err instanceof AppError ? 'warn' : 'error']({ err, scheduleId: id, attempt: schedule.attempts }, 'scheduled message not sent');
    await em.execute(
      `update schedules set status = case when attempts >= ? then 'ERRO' else 'PENDENTE' end, error = ?, updated_at = now()
       where id = ? and company_id = ? and status = 'AGENDADA'`,
      [SCHEDULE_MAX_ATTEMPTS, reason, id, companyId],
    );
    outcome = 'failed';
  }
  await announce(deps, em, id);
  return outcome;
};

/**
 * The sweep: sends cut off by a crash count as failed attempts; then every due schedule (overdue ones,
 * retries whose backoff has passed) is sent, oldest first. Finished send jobs are removed from the job store.
 */
export const catchUpSchedules = async (deps: ScheduleSenderDeps, agenda?: Agenda): Promise<{ sent: number; failed: number }> => {
  const em = deps.systemEm();
  const interrupted = await em.execute<{ id: number; company_id: number }[]>(
    `update schedules set status = case when attempts >= ? then 'ERRO' else 'PENDENTE' end,
       error = 'ERR_SENDING_WAPP_MSG', updated_at = now()
     where status = 'AGENDADA' and updated_at < now() - make_interval(secs => ?) returning id, company_id`,
    [SCHEDULE_MAX_ATTEMPTS, SENDING_LEASE_S],
  );
  for (const row of interrupted) await announce(deps, forCompany(deps.systemEm(), row.company_id), row.id);

  const due = await em.execute<{ id: number; company_id: number }[]>(
    `select id, company_id from schedules where ${DUE} order by send_at, id limit ${SWEEP_BATCH}`,
  );
  const result = { sent: 0, failed: 0 };
  for (const row of due) {
    try {
      const outcome = await sendSchedule(deps, row.company_id, row.id);
      if (outcome === 'sent') result.sent += 1;
      if (outcome === 'failed') result.failed += 1;
    } catch (err) {
      deps.logger.error({ err, scheduleId: row.id }, 'schedule sweep failed on one schedule');
    }
  }

  if (agenda) {
    // A send job runs once; what it did is in the schedule row, so the job's own row is no longer needed.
    const { jobs } = await agenda.queryJobs({ name: SEND_JOB });
    const ids = jobs.filter((j) => (j.state === 'completed' || j.state === 'failed') && j._id !== undefined).map((j) => String(j._id));
    if (ids.length > 0) await agenda.cancel({ ids });
  }
  return result;
};

/** The job that sends one schedule at its sendAt, and the minute sweep. */
export const registerScheduleJobs = (registry: JobRegistry, deps: ScheduleSenderDeps): void => {
  registry.define<SendJobData>({
    name: SEND_JOB,
    // The job only hands the message to the outbox: one a crash left locked need not wait 10 minutes.
    lockLifetime: 30_000,
    handler: async ({ companyId, scheduleId }) => {
      await sendSchedule(deps, companyId, scheduleId);
    },
  });
  registry.define({
    name: CATCH_UP_JOB,
    every: '1 minute',
    concurrency: 1,
    handler: async (_data, job) => {
      await catchUpSchedules(deps, job.agenda);
    },
  });
};
