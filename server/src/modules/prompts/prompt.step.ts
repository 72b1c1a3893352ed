import type { EntityManager } from '@mikro-orm/postgresql';
import { PROMPT_HANDOFF_MARKER } from '@atrium/shared';
import { forCompany } from '../../db/tenant.js';
import type { InboundFacts } from '../../pipeline/steps/step.js';
import { STEP_ORDER } from '../../pipeline/steps/order.js';
import type { OrderedStep } from '../../pipeline/steps/index.js';
import type { ModuleContext } from '../app-module.js';
import {
  answerOnQueueChoice,
  automationStep,
  conversationHistory,
  handToPerson,
  isAnswering,
  notesFor,
  type AutomationTarget,
} from '../automation/index.js';
import { Contact } from '../contacts/contact.entity.js';
import { Message } from '../messages/message.entity.js';
import { sendText } from '../outbox/index.js';
import { findHold, withConversation } from '../tickets/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { transitionDeps } from '../transitions/index.js';
import { AiError, chatCompletion, transcribe, type ChatTurn } from './ai-client.js';
import { Prompt } from './prompt.entity.js';
import { openApiKey, recordUsage, type PromptDeps } from './prompts.service.js';

/** Media of a voice note not downloaded yet: the task is tried again (steps/tasks.ts backoff). */
class MediaNotReady extends Error {}

/** The customer's first name as the old preamble used it: letters and digits, "Amigo(a)" without one. */
export const firstName = (name: string) => name.split(/\s+/)[0]?.replace(/[^\p{L}\p{N}]/gu, '') || 'Amigo(a)';

/** The fixed preamble (spec 04 section 9), then the company's own instructions. */
export const systemPrompt = (prompt: Pick<Prompt, 'prompt' | 'maxTokens'>, customerName: string) =>
  [
    'Você é um assistente virtual de atendimento ao cliente via WhatsApp.',
    `Chame o cliente pelo primeiro nome, ${firstName(customerName)}, e responda em no máximo ${prompt.maxTokens} tokens.`,
    `Se o cliente pedir um atendente humano, ou se você não puder ajudar, comece a resposta com "${PROMPT_HANDOFF_MARKER}".`,
    '',
    prompt.prompt,
  ].join('\n');

const MARKER = new RegExp(PROMPT_HANDOFF_MARKER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');

/** The reply without the handoff marker, and whether it was there (anywhere in the reply). */
export const readReply = (text: string) => ({ handoff: MARKER.test(text), text: text.replace(MARKER, '').replace(/^[\s:.,-]+/, '').trim() });

type Transcripts = Record<string, string>;

/**
 * The turns sent to the model: the preamble, then the ticket's last `maxMessages` text messages in
 * chronological order (ours as the assistant, the customer's as the user), the current one last and
 * once. A voice note counts as the customer's words through its transcript.
 */
export const chatTurns = async (
  em: EntityManager,
  prompt: Pick<Prompt, 'prompt' | 'maxTokens' | 'maxMessages'>,
  ticket: Pick<Ticket, 'id' | 'contactId'>,
  uptoId: number,
  transcripts: Transcripts,
): Promise<ChatTurn[]> => {
  const contact = await em.findOneOrFail(Contact, ticket.contactId, { fields: ['name'] });
  const history = await conversationHistory(em, ticket.id, uptoId, prompt.maxMessages);
  const turns: ChatTurn[] = [{ role: 'system', content: systemPrompt(prompt, contact.name) }];
  for (const m of history) {
    const text = m.mediaType === 'audio' ? (transcripts[String(m.id)] ?? '') : m.body.trim();
    if (text) turns.push({ role: m.fromMe ? 'assistant' : 'user', content: text });
  }
  return turns;
};

/** "typing…" for about as long as a person would take, within 0.5-2 s. */
const typingFor = (text: string) => ({ kind: 'composing' as const, ms: Math.min(2000, Math.max(500, text.length * 15)) });

/**
 * The AI prompt's answer to one customer message (run after commit; may run again after a crash). A
 * message followed by another of the customer is skipped: the later one's answer reads both.
 */
const answer = async (ctx: ModuleContext, deps: PromptDeps, facts: InboundFacts, target: AutomationTarget) => {
  const em = forCompany(ctx.systemEm(), facts.companyId);
  const later = await em.count(Message, { ticketId: facts.ticketId, fromMe: false, isDeleted: false, id: { $gt: facts.messageId }, mediaType: { $in: ['chat', 'audio'] } });
  if (later > 0) return;
  const ticket = await em.findOne(Ticket, facts.ticketId);
  const hold = await findHold(em, facts.ticketId);
  if (!ticket || ticket.userId !== null || ticket.status === 'closed' || !isAnswering(hold, target)) return;
  const prompt = await em.findOne(Prompt, target.id);
  if (!prompt) return;
  const version = hold.version;
  const transcripts: Transcripts = { ...((hold.memory.transcripts as Transcripts | undefined) ?? {}) };

  let outcome: { text: string; handoff: boolean } | { failure: AiError['code'] };
  try {
    const apiKey = openApiKey(deps, prompt);
    const current = await em.findOne(Message, facts.messageId);
    if (current?.mediaType === 'audio' && !current.fromMe && transcripts[String(current.id)] === undefined) {
      if (current.mediaStatus === 'pending') throw new MediaNotReady('voice note not downloaded yet');
      if (current.mediaUrl) {
        const data = await ctx.media.read(facts.companyId, current.mediaUrl);
        transcripts[String(current.id)] = await transcribe(apiKey, { data, filename: current.mediaUrl, mimetype: 'audio/ogg' }, deps.aiTimeoutMs);
        await recordUsage(em, { kind: 'transcription', model: 'whisper-1', usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } });
      }
    }
    const turns = await chatTurns(em, prompt, ticket, facts.messageId, transcripts);
    const reply = await chatCompletion(apiKey, { model: prompt.model, messages: turns, maxTokens: prompt.maxTokens, temperature: prompt.temperature }, deps.aiTimeoutMs);
    await recordUsage(em, { kind: 'reply', model: prompt.model, usage: reply.usage });
    outcome = readReply(reply.text);
  } catch (err) {
    if (err instanceof MediaNotReady) throw err;
    const code = err instanceof AiError ? err.code : 'ERR_AI_UNAVAILABLE';
    ctx.logger.warn({ ticketId: facts.ticketId, promptId: prompt.id, code }, 'ai prompt failed; the ticket goes to a person');
    outcome = { failure: code };
  }

  const notes = await notesFor(em, facts.companyId);
  const transitions = transitionDeps(ctx);
  await withConversation(
    em,
    facts.ticketId,
    async (tx, ticket, hold) => {
      if (ticket.userId !== null || ticket.status === 'closed' || !isAnswering(hold, target)) return;
      if ('failure' in outcome) return handToPerson(transitions, tx, ticket, target, { queueId: prompt.queueId, note: notes[outcome.failure] });
      hold.memory = { ...hold.memory, transcripts: keepLast(transcripts, 20) };
      if (outcome.text) await sendText(ctx, tx, ticket, { body: outcome.text, isSystem: true, render: false, presence: typingFor(outcome.text) });
      if (outcome.handoff) return handToPerson(transitions, tx, ticket, target, { queueId: prompt.queueId, note: notes.aiHandoff });
      if (!outcome.text) return handToPerson(transitions, tx, ticket, target, { queueId: prompt.queueId, note: notes.aiEmpty });
      await tx.flush();
    },
    { expectVersion: version },
  );
};

const keepLast = (transcripts: Transcripts, n: number): Transcripts =>
  Object.fromEntries(
    Object.entries(transcripts)
      .sort(([a], [b]) => Number(a) - Number(b))
      .slice(-n),
  );

/** The prompts module's inbound step: after the integrations (STEP_ORDER.prompt). */
export const promptSteps = (ctx: ModuleContext, deps: PromptDeps): OrderedStep[] => {
  const step = automationStep(
    { systemEm: ctx.systemEm, logger: ctx.logger, tasks: () => ctx.pipeline.tasks },
    { name: 'ai prompt', kind: 'prompt', work: (facts, target) => answer(ctx, deps, facts, target) },
  );
  answerOnQueueChoice(ctx.events, { systemEm: ctx.systemEm, logger: ctx.logger, tasks: () => ctx.pipeline.tasks }, () => step, 'prompt');
  return [{ order: STEP_ORDER.prompt, step }];
};
