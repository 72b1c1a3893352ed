import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PROMPTS_PAGE_SIZE,
  type CreatePromptInput,
  type ListQuery,
  type PromptUsageView,
  type PromptView,
  type UpdatePromptInput,
} from '@atrium/shared';
import { pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { lastFour, type Sealer } from '../../secrets/sealed.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { assertPlanFeature } from '../plans/index.js';
import { Queue } from '../queues/queue.entity.js';
import { ConversationHold } from '../tickets/conversation-hold.entity.js';
import { checkApiKey, type AiUsageFigures } from './ai-client.js';
import { Prompt, type AiUsageKind } from './prompt.entity.js';

export interface PromptDeps {
  sealer: Sealer;
  aiTimeoutMs: number;
}

/** Where a prompt's key belongs: a sealed key opens only on its own company's prompts. */
export const keyContext = (companyId: number) => `prompts.api_key:${companyId}`;

export const openApiKey = (deps: Pick<PromptDeps, 'sealer'>, prompt: Prompt) => deps.sealer.open(prompt.apiKeySealed, keyContext(prompt.companyId));

export const presentPrompt = (prompt: Prompt, queue: Pick<Queue, 'id' | 'name' | 'color'> | null): PromptView<Date> => ({
  id: prompt.id,
  name: prompt.name,
  prompt: prompt.prompt,
  model: prompt.model,
  maxTokens: prompt.maxTokens,
  temperature: prompt.temperature,
  maxMessages: prompt.maxMessages,
  queueId: prompt.queueId ?? 0,
  queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : null,
  hasApiKey: prompt.apiKeySealed !== '',
  apiKeyLast4: prompt.apiKeyLast4,
  companyId: prompt.companyId,
  createdAt: prompt.createdAt,
  updatedAt: prompt.updatedAt,
});

const presentAll = async (em: EntityManager, prompts: Prompt[]) => {
  const ids = [...new Set(prompts.map((p) => p.queueId).filter((id): id is number => id !== null))];
  const queues = ids.length ? await em.find(Queue, { id: { $in: ids } }, { fields: ['id', 'name', 'color'] }) : [];
  const byId = new Map(queues.map((q) => [q.id, q]));
  return prompts.map((p) => presentPrompt(p, p.queueId !== null ? (byId.get(p.queueId) ?? null) : null));
};

export const findPrompt = async (em: EntityManager, id: number) => {
  const prompt = await em.findOne(Prompt, id);
  if (!prompt) throw new AppError('ERR_NO_PROMPT_FOUND');
  return prompt;
};

const assertQueue = async (em: EntityManager, queueId: number) => {
  if (!(await em.findOne(Queue, queueId, { fields: ['id'] }))) throw new AppError('ERR_NO_QUEUE_FOUND');
};

/** A key the provider refuses is not saved (a key it cannot be asked about is). */
const sealChecked = async (deps: PromptDeps, companyId: number, apiKey: string) => {
  if ((await checkApiKey(apiKey, Math.min(deps.aiTimeoutMs, 10_000))) === 'invalid') throw new AppError('ERR_AI_INVALID_API_KEY');
  return { apiKeySealed: deps.sealer.seal(apiKey, keyContext(companyId)), apiKeyLast4: lastFour(apiKey) };
};

const announce = (ctx: ServiceContext, action: 'create' | 'update', record: PromptView<Date>) => {
  ctx.events.emit('prompt.changed', { companyId: record.companyId, action, record });
  return record;
};

/** GET /prompt: the company's prompts by name (searchParam, pageNumber), each with its queue. */
export const listPrompts = async (ctx: ServiceContext, query: ListQuery) => {
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useOpenAi');
  const where = query.searchParam ? { name: { $ilike: `%${escapeLike(query.searchParam)}%` } } : {};
  const [prompts, count] = await ctx.em.findAndCount(Prompt, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: PROMPTS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * PROMPTS_PAGE_SIZE,
  });
  const page = pageOf(await presentAll(ctx.em, prompts), count, query.pageNumber, PROMPTS_PAGE_SIZE);
  return { prompts: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getPrompt = async (ctx: ServiceContext, id: number) => {
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useOpenAi');
  return (await presentAll(ctx.em, [await findPrompt(ctx.em, id)]))[0];
};

export const createPrompt = async (ctx: ServiceContext, deps: PromptDeps, input: CreatePromptInput) => {
  requireAdmin(ctx.actor);
  const companyId = ctx.actor.companyId;
  await assertPlanFeature(ctx.em, companyId, 'useOpenAi');
  await assertQueue(ctx.em, input.queueId);
  const { apiKey, ...fields } = input;
  const prompt = ctx.em.create(Prompt, { ...fields, companyId: requireTenant(ctx.em), ...(await sealChecked(deps, companyId, apiKey)) });
  await ctx.em.flush();
  return announce(ctx, 'create', (await presentAll(ctx.em, [prompt]))[0]);
};

export const updatePrompt = async (ctx: ServiceContext, deps: PromptDeps, id: number, input: UpdatePromptInput) => {
  requireAdmin(ctx.actor);
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useOpenAi');
  const prompt = await findPrompt(ctx.em, id);
  const { apiKey, ...fields } = input;
  if (fields.queueId !== undefined) await assertQueue(ctx.em, fields.queueId);
  ctx.em.assign(prompt, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
  if (apiKey) Object.assign(prompt, await sealChecked(deps, prompt.companyId, apiKey));
  await ctx.em.flush();
  return announce(ctx, 'update', (await presentAll(ctx.em, [prompt]))[0]);
};

/**
 * DELETE /prompt/{id}: refused while a connection or a queue names it (spec 04 section 9 refuses for
 * connections; a queue left naming a deleted prompt would silently stop answering). Conversations it
 * was answering are let go of.
 */
export const deletePrompt = async (ctx: ServiceContext, id: number) => {
  requireAdmin(ctx.actor);
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useOpenAi');
  const prompt = await findPrompt(ctx.em, id);
  const inUse = (await ctx.em.count(Whatsapp, { promptId: id })) + (await ctx.em.count(Queue, { promptId: id }));
  if (inUse > 0) throw new AppError('ERR_PROMPT_IN_USE');
  await ctx.em.transactional(async (tx) => {
    await tx.nativeDelete(ConversationHold, { holder: 'prompt', holderId: id });
    await tx.nativeDelete(Prompt, { id: prompt.id });
  });
  ctx.events.emit('prompt.deleted', { companyId: prompt.companyId, id });
};

/** Adds one call's tokens to the company's tally (one statement, safe side by side). */
export const recordUsage = async (em: EntityManager, input: { kind: AiUsageKind; model: string; usage: AiUsageFigures }) => {
  await em.execute(
    `insert into ai_usages (company_id, day, kind, model, requests, prompt_tokens, completion_tokens, total_tokens)
     values (?, current_date, ?, ?, 1, ?, ?, ?)
     on conflict (company_id, day, kind, model) do update set
       requests = ai_usages.requests + 1,
       prompt_tokens = ai_usages.prompt_tokens + excluded.prompt_tokens,
       completion_tokens = ai_usages.completion_tokens + excluded.completion_tokens,
       total_tokens = ai_usages.total_tokens + excluded.total_tokens`,
    [requireTenant(em), input.kind, input.model.slice(0, 100), input.usage.promptTokens, input.usage.completionTokens, input.usage.totalTokens],
  );
};

/** GET /prompt/usage (admins): the company's tokens per month, kind and model, the latest 12 months. */
export const promptUsage = async (ctx: ServiceContext): Promise<PromptUsageView[]> => {
  requireAdmin(ctx.actor);
  const rows = await ctx.em.execute<any[]>(
    `select to_char(day, 'YYYY-MM') as month, kind, model, sum(requests)::int as requests, sum(prompt_tokens)::int as prompt_tokens,
            sum(completion_tokens)::int as completion_tokens, sum(total_tokens)::int as total_tokens
       from ai_usages where company_id = ? and day >= date_trunc('month', current_date) - interval '11 months'
      group by 1, 2, 3 order by 1 desc, 2, 3`,
    [ctx.actor.companyId],
  );
  return rows.map((r) => ({
    month: r.month,
    kind: r.kind,
    model: r.model,
    requests: r.requests,
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
    totalTokens: r.total_tokens,
  }));
};
