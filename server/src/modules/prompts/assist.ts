import type { EntityManager } from '@mikro-orm/postgresql';
import type { PromptAssistAvailability } from '@atrium/shared';
import type { ServiceContext } from '../../context.js';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { Logger } from '../../logger.js';
import { automationNote, conversationHistory, notesFor } from '../automation/index.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { assertPlanFeature } from '../plans/index.js';
import { Plan } from '../plans/plan.entity.js';
import { Queue } from '../queues/queue.entity.js';
import { getSettingValue } from '../settings/index.js';
import { findVisibleTicket } from '../tickets/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { AiError, chatCompletion, type ChatTurn } from './ai-client.js';
import { Prompt } from './prompt.entity.js';
import { openApiKey, recordUsage, type PromptDeps } from './prompts.service.js';

/**
 * The prompt helps the agent too: "Suggest a reply" (a draft the agent edits and sends; never sent by
 * itself) and "Summarise" (a few lines for a colleague, also added as an internal note on transfer when
 * aiSummaryOnTransfer is on). The prompt is the ticket's queue's, else its connection's, else the
 * company's default (aiAssistPromptId). Same key handling, token accounting and error rules as the
 * automatic replies.
 */
export const assistPromptFor = async (em: EntityManager, ticket: Ticket): Promise<Prompt | null> => {
  const queue = ticket.queueId ? await em.findOne(Queue, ticket.queueId, { fields: ['promptId'] }) : null;
  const connection = ticket.whatsappId ? await em.findOne(Whatsapp, ticket.whatsappId, { fields: ['promptId'] }) : null;
  const fallback = Number(await getSettingValue(em, 'aiAssistPromptId')) || null;
  for (const id of [queue?.promptId, connection?.promptId, fallback]) {
    const prompt = id ? await em.findOne(Prompt, id) : null;
    if (prompt) return prompt;
  }
  return null;
};

const LANGUAGE_NAMES: Record<string, string> = { pt: 'Portuguese', en: 'English', es: 'Spanish' };

const transcriptOf = async (em: EntityManager, prompt: Prompt, ticket: Ticket) => {
  const contact = await em.findOneOrFail(Contact, ticket.contactId, { fields: ['name'] });
  const history = await conversationHistory(em, ticket.id, 2147483647, Math.max(prompt.maxMessages, 20));
  return history
    .filter((m) => m.mediaType === 'chat' && m.body.trim())
    .map((m) => `${m.fromMe ? 'Agent' : contact.name || 'Customer'}: ${m.body.trim()}`)
    .join('\n');
};

const ask = async (em: EntityManager, deps: PromptDeps, prompt: Prompt, kind: 'suggestion' | 'summary', turns: ChatTurn[], maxTokens: number) => {
  const reply = await chatCompletion(openApiKey(deps, prompt), { model: prompt.model, messages: turns, maxTokens, temperature: prompt.temperature }, deps.aiTimeoutMs);
  await recordUsage(em, { kind, model: prompt.model, usage: reply.usage });
  return reply.text;
};

/** A summary of the ticket's conversation, in the company's language; null when there is nothing to sum up. */
export const summarise = async (em: EntityManager, deps: PromptDeps, prompt: Prompt, ticket: Ticket): Promise<string | null> => {
  const transcript = await transcriptOf(em, prompt, ticket);
  if (!transcript) return null;
  const company = await em.findOneOrFail(Company, ticket.companyId, { fields: ['language'] });
  return ask(em, deps, prompt, 'summary', [
    {
      role: 'system',
      content: `Summarise this customer-service conversation for a colleague who takes it over: what the customer wants, what was done, what is pending. At most 5 short lines, in ${LANGUAGE_NAMES[company.language] ?? 'Portuguese'}.`,
    },
    { role: 'user', content: transcript },
  ], Math.max(prompt.maxTokens, 200));
};

const callFailed = (err: unknown): never => {
  if (err instanceof AiError) throw new AppError('ERR_AI_UNAVAILABLE', { reason: err.code });
  throw err;
};

const assistContext = async (ctx: ServiceContext, ticketId: number) => {
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useOpenAi');
  const ticket = await findVisibleTicket(ctx, ticketId);
  const prompt = await assistPromptFor(ctx.em, ticket);
  if (!prompt) throw new AppError('ERR_AI_NO_PROMPT');
  return { ticket, prompt };
};

/** GET /prompt/assist?ticketId: whether the agent's conversation offers the two buttons. */
export const assistAvailability = async (ctx: ServiceContext, ticketId: number): Promise<PromptAssistAvailability> => {
  const ticket = await findVisibleTicket(ctx, ticketId);
  const company = await ctx.em.findOneOrFail(Company, ctx.actor.companyId, { fields: ['planId'] });
  const plan = await ctx.em.findOne(Plan, company.planId, { fields: ['useOpenAi'] });
  if (!plan?.useOpenAi) return { available: false, promptId: null };
  const prompt = await assistPromptFor(ctx.em, ticket);
  return { available: prompt !== null, promptId: prompt?.id ?? null };
};

/** POST /prompt/assist/suggest: a draft of the agent's next reply (answered, never sent). */
export const suggestReply = async (ctx: ServiceContext, deps: PromptDeps, ticketId: number) => {
  const { ticket, prompt } = await assistContext(ctx, ticketId);
  const transcript = await transcriptOf(ctx.em, prompt, ticket);
  const suggestion = await ask(ctx.em, deps, prompt, 'suggestion', [
    {
      role: 'system',
      content: `${prompt.prompt}\n\nYou help a customer-service agent: write the next message the agent could send to the customer, in the customer's language. Answer with the message text only.`,
    },
    { role: 'user', content: transcript || '(no messages yet)' },
  ], prompt.maxTokens).catch(callFailed);
  return { suggestion };
};

/** POST /prompt/assist/summary: a short summary of the conversation for the agent. */
export const summariseTicket = async (ctx: ServiceContext, deps: PromptDeps, ticketId: number) => {
  const { ticket, prompt } = await assistContext(ctx, ticketId);
  const summary = await summarise(ctx.em, deps, prompt, ticket).catch(callFailed);
  return { summary: summary ?? '' };
};

/**
 * With aiSummaryOnTransfer on, a ticket an agent transfers (to another queue, or to another agent) gets the
 * AI's summary as an internal note, for whoever takes it. A failure costs only the note.
 */
export const summaryOnTransfer = (events: EventBus, deps: PromptDeps & { systemEm: () => EntityManager; logger: Logger }) => {
  events.on('ticket.changed', async ({ companyId, ticket, previous, actor }) => {
    if (actor?.kind !== 'user' || !previous || previous.status === 'closed' || ticket.status === 'closed') return;
    const transferred = previous.queueId !== ticket.queueId || (ticket.userId !== null && ticket.userId !== actor.userId && ticket.userId !== previous.userId);
    if (!transferred) return;
    const em = forCompany(deps.systemEm(), companyId);
    if ((await getSettingValue(em, 'aiSummaryOnTransfer')) !== 'enabled') return;
    const company = await em.findOneOrFail(Company, companyId, { fields: ['planId'] });
    if (!(await em.findOne(Plan, company.planId, { fields: ['useOpenAi'] }))?.useOpenAi) return;
    const row = await em.findOne(Ticket, ticket.id);
    const prompt = row && (await assistPromptFor(em, row));
    if (!row || !prompt) return;
    try {
      const summary = await summarise(em, deps, prompt, row);
      if (!summary) return;
      await automationNote(em, row, (await notesFor(em, companyId)).summary(summary));
      await em.flush();
    } catch (err) {
      deps.logger.warn({ ticketId: ticket.id, code: err instanceof AiError ? err.code : 'unknown' }, 'transfer summary failed');
    }
  });
};
