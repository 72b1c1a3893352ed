import { escapeLike } from '../../db/sql.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PAGE_SIZE,
  RECURRENCE_MONTHS,
  SIGNUP_TRIAL_DAYS,
  WEEKDAYS,
  type CreateCompanyInput,
  type ListQuery,
  type Recurrence,
  type SignupInput,
  type UpdateCompanyInput,
  type UpdateCompanySchedulesInput,
} from '@atrium/shared';
import type { Config } from '../../config.js';
import { crossCompanyEm, emForCompany, pageOf, requireAdmin, requireSuper, type ServiceContext } from '../../context.js';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import { assertPasswordAllowed, hashPassword, hitRateLimit, todayIn } from '../auth/index.js';
import { findPlan, presentPlan } from '../plans/index.js';
import { Setting } from '../settings/setting.entity.js';
import { ensureDefaultSettings, visibleSettings } from '../settings/index.js';
import { User } from '../users/user.entity.js';
import { Company, CompanySchedule } from './company.entity.js';

export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

/** yyyy-MM-dd plus `days` calendar days. */
export const addDays = (day: string, days: number): string => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return isoDate(date);
};

/** dueDate moved forward by the recurrence's months (spec 01 section 2: the Expire button, payments). */
export const addRecurrence = (dueDate: string | null, recurrence: string, from = new Date()): string => {
  const months = RECURRENCE_MONTHS[recurrence as Recurrence] ?? 1;
  const base = dueDate ? new Date(`${dueDate}T00:00:00Z`) : new Date(`${isoDate(from)}T00:00:00Z`);
  const day = base.getUTCDate();
  base.setUTCDate(1);
  base.setUTCMonth(base.getUTCMonth() + months);
  // 31 January plus one month is the last day of February, not 3 March.
  const lastDay = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0)).getUTCDate();
  base.setUTCDate(Math.min(day, lastDay));
  return isoDate(base);
};

export const presentCompany = (
  company: Company,
  extra: { schedules?: CompanySchedule[]; settings?: object[]; plan?: object } = {},
) => ({
  id: company.id,
  name: company.name,
  email: company.email,
  phone: company.phone,
  planId: company.planId,
  status: company.status,
  dueDate: company.dueDate,
  trialExpiration: company.trialExpiration,
  recurrence: company.recurrence,
  language: company.language,
  timezone: company.timezone,
  billingName: company.billingName,
  createdAt: company.createdAt,
  updatedAt: company.updatedAt,
  ...(extra.plan ? { plan: extra.plan } : {}),
  ...(extra.settings ? { settings: extra.settings } : {}),
  ...(extra.schedules
    ? {
        schedules: extra.schedules.map((s) => ({
          weekday: s.weekday,
          weekdayEn: s.weekdayEn,
          startTime: s.startTime,
          endTime: s.endTime,
        })),
      }
    : {}),
});


const assertCompanyNameFree = async (em: EntityManager, name: string, exceptId?: number) => {
  const other = await em.findOne(Company, { name: { $ilike: escapeLike(name) } });
  if (other && other.id !== exceptId) throw new AppError('ERR_COMPANY_NAME_ALREADY_EXISTS');
};

const assertEmailFree = async (em: EntityManager, email: string) => {
  if (await em.findOne(User, { email })) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
};

/**
 * The checks above cannot see a concurrent request doing the same; the unique indexes can. Their
 * violations get the same codes as the checks instead of a generic conflict.
 */
const uniqueViolationCode = (err: unknown) => {
  if (!(err instanceof UniqueConstraintViolationException)) return undefined;
  const constraint = (err as { constraint?: string }).constraint;
  if (constraint === 'companies_name_unique') return 'ERR_COMPANY_NAME_ALREADY_EXISTS' as const;
  if (constraint === 'users_email_unique') return 'ERR_EMAIL_ALREADY_EXISTS' as const;
  return undefined;
};

const rethrowUnique = (err: unknown): never => {
  const code = uniqueViolationCode(err);
  throw code ? new AppError(code) : err;
};

/** Weekly schedule rows for the 7 days, empty (= open all day) until the company sets hours. */
const createDefaultSchedules = (em: EntityManager, companyId: number) => {
  for (const day of WEEKDAYS) {
    em.create(CompanySchedule, { companyId, weekday: day.weekday, weekdayEn: day.weekdayEn });
  }
};

interface NewCompany {
  name: string;
  email?: string | null;
  phone?: string | null;
  planId: number;
  status: boolean;
  dueDate: string | null;
  trialExpiration?: Date | null;
  recurrence: string;
  timezone?: string;
  campaignsEnabled?: boolean;
  admin?: { name: string; email: string; password: string };
}

/**
 * Creates a company with its default settings, its weekly schedule and optionally its first admin,
 * in one transaction. `em` is a system manager: the company does not exist yet.
 */
export const createCompanyRecord = async (em: EntityManager, data: NewCompany) =>
  em.transactional(async (tx) => {
    await findPlan(tx, data.planId);
    await assertCompanyNameFree(tx, data.name);
    if (data.admin) await assertEmailFree(tx, data.admin.email);
    const company = tx.create(Company, {
      name: data.name,
      email: data.email || null,
      phone: data.phone || null,
      planId: data.planId,
      status: data.status,
      dueDate: data.dueDate,
      trialExpiration: data.trialExpiration ?? null,
      recurrence: data.recurrence,
      ...(data.timezone ? { timezone: data.timezone } : {}),
    });
    await tx.flush();
    const scoped = forCompany(tx, company.id);
    await ensureDefaultSettings(scoped, company.id, {
      campaignsEnabled: data.campaignsEnabled === false ? 'false' : 'true',
    });
    createDefaultSchedules(scoped, company.id);
    if (data.admin) {
      scoped.create(User, {
        name: data.admin.name,
        email: data.admin.email,
        passwordHash: await hashPassword(data.admin.password),
        profile: 'admin',
        companyId: company.id,
      });
    }
    await scoped.flush();
    return company;
  }).catch(rethrowUnique);

/** Public signup: the trial terms are the server's, whatever the form sends (spec 03 section 11). */
export const signup = async (deps: { em: EntityManager; config: Config; events: EventBus }, input: SignupInput, ip: string) => {
  await hitRateLimit(deps.em, `signup:ip:${ip}`, deps.config.signupMaxPerIp, 60 * 60);
  assertPasswordAllowed(input.password);
  const timezone = deps.config.defaultTimezone;
  const company = await createCompanyRecord(deps.em, {
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    planId: input.planId,
    status: true,
    // Today plus 3 days where the company is: the login check compares dueDate with that same today.
    dueDate: addDays(todayIn(timezone), SIGNUP_TRIAL_DAYS),
    trialExpiration: new Date(Date.now() + SIGNUP_TRIAL_DAYS * 86400_000),
    recurrence: 'MENSAL',
    timezone,
    campaignsEnabled: true,
    admin: { name: input.name, email: input.email, password: input.password },
  });
  deps.events.emit('company.saved', { companyId: company.id, action: 'create', company: presentCompany(company) });
  return presentCompany(company);
};

export const createCompany = async (ctx: ServiceContext, input: CreateCompanyInput, defaultTimezone: string) => {
  requireSuper(ctx.actor);
  if (input.password) assertPasswordAllowed(input.password);
  const timezone = input.timezone || defaultTimezone;
  const company = await createCompanyRecord(crossCompanyEm(ctx), {
    name: input.name,
    email: input.email || null,
    phone: input.phone ?? null,
    planId: input.planId,
    status: input.status,
    dueDate: input.dueDate ? isoDate(input.dueDate) : addRecurrence(todayIn(timezone), input.recurrence),
    recurrence: input.recurrence,
    timezone,
    campaignsEnabled: input.campaignsEnabled,
    admin:
      input.email && input.password ? { name: input.name, email: input.email, password: input.password } : undefined,
  });
  ctx.events.emit('company.saved', { companyId: company.id, action: 'create', company: presentCompany(company) });
  return presentCompany(company);
};

export const listCompanies = async (ctx: ServiceContext, query: ListQuery) => {
  const em = crossCompanyEm(ctx);
  const term = `%${escapeLike(query.searchParam)}%`;
  const where = query.searchParam
    ? { $or: [{ name: { $ilike: term } }, { email: { $ilike: term } }, { phone: { $ilike: term } }] }
    : {};
  const [companies, count] = await em.findAndCount(Company, where, {
    orderBy: { name: 'asc' },
    limit: PAGE_SIZE.companies,
    offset: (query.pageNumber - 1) * PAGE_SIZE.companies,
  });
  const page = pageOf(companies.map((c) => presentCompany(c)), count, query.pageNumber, PAGE_SIZE.companies);
  return { companies: page.rows, count: page.count, hasMore: page.hasMore };
};

export const listAllCompanies = async (ctx: ServiceContext) =>
  (await crossCompanyEm(ctx).find(Company, {}, { orderBy: { name: 'asc' } })).map((c) => presentCompany(c));

const findCompany = async (em: EntityManager, id: number) => {
  const company = await em.findOne(Company, id);
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  return company;
};

/** One company with its plan, schedules and settings: the caller's own, or any for a super user. */
export const getCompany = async (ctx: ServiceContext, id: number) => {
  const em = emForCompany(ctx, id);
  const company = await findCompany(em, id);
  const schedules = await em.find(CompanySchedule, { companyId: id }, { orderBy: { id: 'asc' } });
  const settings = await em.find(Setting, { companyId: id }, { orderBy: { key: 'asc' } });
  const plan = presentPlan(await findPlan(em, company.planId));
  return presentCompany(company, { schedules, plan, settings: visibleSettings(settings, ctx.actor) });
};

export const getCompanyPlan = async (ctx: ServiceContext, id: number) => {
  const em = emForCompany(ctx, id);
  const company = await findCompany(em, id);
  return { ...presentCompany(company), plan: presentPlan(await findPlan(em, company.planId)) };
};

export const updateCompany = async (ctx: ServiceContext, id: number, input: UpdateCompanyInput) => {
  requireSuper(ctx.actor);
  const em = emForCompany(ctx, id);
  const company = await findCompany(em, id);
  if (input.name) await assertCompanyNameFree(crossCompanyEm(ctx), input.name, id);
  if (input.planId) await findPlan(em, input.planId);
  const { campaignsEnabled, dueDate, email, ...fields } = input;
  em.assign(company, {
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    ...(email !== undefined ? { email: email || null } : {}),
    ...(dueDate ? { dueDate: isoDate(dueDate) } : {}),
  });
  if (campaignsEnabled !== undefined) {
    const setting =
      (await em.findOne(Setting, { companyId: id, key: 'campaignsEnabled' })) ??
      em.create(Setting, { companyId: id, key: 'campaignsEnabled', value: '' });
    setting.value = String(campaignsEnabled);
  }
  // One flush, one transaction: the company and its setting change together or not at all.
  await em.flush().catch(rethrowUnique);
  ctx.events.emit('company.saved', { companyId: id, action: 'update', company: presentCompany(company) });
  return presentCompany(company);
};

export const deleteCompany = async (ctx: ServiceContext, id: number) => {
  requireSuper(ctx.actor);
  const em = emForCompany(ctx, id);
  const company = await findCompany(em, id);
  // Removing a company with a super user would lock the platform's administrators out.
  if ((await em.count(User, { companyId: id, super: true })) > 0) throw new AppError('ERR_COMPANY_HAS_SUPER_USER');
  await em.remove(company).flush();
  ctx.events.emit('company.deleted', { companyId: id });
};

export const updateCompanySchedules = async (ctx: ServiceContext, id: number, input: UpdateCompanySchedulesInput) => {
  requireAdmin(ctx.actor);
  const em = emForCompany(ctx, id);
  await findCompany(em, id);
  const existing = await em.find(CompanySchedule, { companyId: id });
  for (const entry of input.schedules) {
    const day = WEEKDAYS.find((d) => d.weekdayEn === entry.weekdayEn)!;
    const row =
      existing.find((s) => s.weekdayEn === entry.weekdayEn) ??
      em.create(CompanySchedule, { companyId: id, weekdayEn: entry.weekdayEn });
    // The label follows weekdayEn; a client's free text could name another day.
    em.assign(row, { weekday: day.weekday, startTime: entry.startTime, endTime: entry.endTime });
  }
  await em.flush();
  const schedules = await em.find(CompanySchedule, { companyId: id }, { orderBy: { id: 'asc' } });
  return presentCompany(await findCompany(em, id), { schedules }).schedules;
};
