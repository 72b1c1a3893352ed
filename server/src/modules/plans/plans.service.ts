import { escapeLike } from '../../db/sql.js';
import { assertUniqueName, nameTaken } from '../../db/unique-name.js';
import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PAGE_SIZE, type CreatePlanInput, type PlanFeature, type ListQuery, type UpdatePlanInput } from '@atrium/shared';
import { crossCompanyEm, pageOf, requireSuper, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { Company } from '../companies/company.entity.js';
import { Plan } from './plan.entity.js';

/** Plans are platform-wide: anyone may read them, only super users write them. */
export const presentPlan = (plan: Plan) => ({
  id: plan.id,
  name: plan.name,
  users: plan.users,
  connections: plan.connections,
  queues: plan.queues,
  value: Number(plan.value),
  useCampaigns: plan.useCampaigns,
  useKanban: plan.useKanban,
  useOpenAi: plan.useOpenAi,
  useIntegrations: plan.useIntegrations,
  useSchedules: plan.useSchedules,
  useInternalChat: plan.useInternalChat,
  useExternalApi: plan.useExternalApi,
  createdAt: plan.createdAt,
  updatedAt: plan.updatedAt,
});

export const allPlans = async (em: EntityManager) =>
  (await em.find(Plan, {}, { orderBy: { value: 'asc', id: 'asc' } })).map(presentPlan);


export const listPlans = async (ctx: ServiceContext, query: ListQuery) => {
  const where = query.searchParam ? { name: { $ilike: `%${escapeLike(query.searchParam)}%` } } : {};
  const [plans, count] = await ctx.em.findAndCount(Plan, where, {
    orderBy: { name: 'asc' },
    limit: PAGE_SIZE.plans,
    offset: (query.pageNumber - 1) * PAGE_SIZE.plans,
  });
  const page = pageOf(plans.map(presentPlan), count, query.pageNumber, PAGE_SIZE.plans);
  return { plans: page.rows, count: page.count, hasMore: page.hasMore };
};

export const findPlan = async (em: EntityManager, id: number): Promise<Plan> => {
  const plan = await em.findOne(Plan, id);
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  return plan;
};

const assertNameFree = (em: EntityManager, name: string, exceptId?: number) =>
  assertUniqueName(em, Plan, name, 'ERR_PLAN_NAME_ALREADY_EXISTS', exceptId);
/** A concurrent save with the same name passed the check above; the unique index still answers the right code. */
const flushNamed = (em: EntityManager) => em.flush().catch(nameTaken('ERR_PLAN_NAME_ALREADY_EXISTS'));

export const createPlan = async (ctx: ServiceContext, input: CreatePlanInput) => {
  requireSuper(ctx.actor);
  await assertNameFree(ctx.em, input.name);
  const plan = ctx.em.create(Plan, input);
  await flushNamed(ctx.em);
  return presentPlan(plan);
};

export const updatePlan = async (ctx: ServiceContext, id: number, input: UpdatePlanInput) => {
  requireSuper(ctx.actor);
  const plan = await findPlan(ctx.em, id);
  if (input.name) await assertNameFree(ctx.em, input.name, id);
  ctx.em.assign(plan, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
  await flushNamed(ctx.em);
  return presentPlan(plan);
};

export const deletePlan = async (ctx: ServiceContext, id: number) => {
  requireSuper(ctx.actor);
  const plan = await findPlan(ctx.em, id);
  const inUse = await crossCompanyEm(ctx).count(Company, { planId: id });
  if (inUse > 0) throw new AppError('ERR_PLAN_IN_USE');
  try {
    await ctx.em.remove(plan).flush();
  } catch (err) {
    // A company took the plan between the count and the delete: the foreign key refuses it.
    if (err instanceof ForeignKeyConstraintViolationException) throw new AppError('ERR_PLAN_IN_USE');
    throw err;
  }
};

const LIMIT_ERRORS = {
  users: 'ERR_USER_LIMIT_REACHED',
  connections: 'ERR_CONNECTION_LIMIT_REACHED',
  queues: 'ERR_QUEUE_LIMIT_REACHED',
} as const;

/** Refuses to create one more of `resource` when the company already has what its plan allows. */
export const assertPlanAllows = async (
  em: EntityManager,
  companyId: number,
  resource: keyof typeof LIMIT_ERRORS,
  currentCount: number,
): Promise<void> => {
  const company = await em.findOneOrFail(Company, companyId);
  const plan = await findPlan(em, company.planId);
  if (currentCount >= plan[resource]) throw new AppError(LIMIT_ERRORS[resource], { limit: plan[resource] });
};

/** Refuses a feature the company's plan switches off (spec 04 section 0: flags are enforced here). */
export const assertPlanFeature = async (em: EntityManager, companyId: number, feature: PlanFeature): Promise<void> => {
  const company = await em.findOneOrFail(Company, companyId);
  const plan = await findPlan(em, company.planId);
  if (!plan[feature]) throw new AppError('ERR_PLAN_FEATURE_DISABLED', { feature });
};
