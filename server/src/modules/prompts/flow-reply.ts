import type { EntityManager } from '@mikro-orm/postgresql';
import { PROMPT_DEFAULTS } from '@atrium/shared';
import type { Ticket } from '../tickets/ticket.entity.js';
import { chatCompletion, type ChatTurn } from './ai-client.js';
import { chatTurns, readReply, systemPrompt } from './prompt.step.js';
import { recordUsage } from './prompts.service.js';

/** A flow's OpenAI node settings, as the node keeps them (its key already opened). */
export interface AiNodeSettings {
  apiKey: string;
  prompt: string;
  model?: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
}

/**
 * The answer of a flow's OpenAI node to the conversation so far (spec 04 section 11 with its notes): the
 * same preamble and history as the company's prompts (the last `maxMessages` texts in chronological order,
 * up to message `uptoId`), the node's own model, limits and key, and the handoff marker read the same way.
 * Throws AiError (ai-client.ts) when the provider cannot answer; the usage is counted as a reply.
 */
export const flowAiReply = async (
  em: EntityManager,
  ticket: Pick<Ticket, 'id' | 'contactId'>,
  settings: AiNodeSettings,
  uptoId: number,
  timeoutMs: number,
): Promise<{ text: string; handoff: boolean }> => {
  const turns = await chatTurns(em, settings, ticket, uptoId, {});
  return complete(em, settings, turns, timeoutMs);
};

const complete = async (em: EntityManager, settings: AiNodeSettings, turns: ChatTurn[], timeoutMs: number) => {
  const model = settings.model || PROMPT_DEFAULTS.model;
  const reply = await chatCompletion(settings.apiKey, { model, messages: turns, maxTokens: settings.maxTokens, temperature: settings.temperature }, timeoutMs);
  await recordUsage(em, { kind: 'reply', model, usage: reply.usage });
  return readReply(reply.text);
};

/**
 * The same answer to a conversation that is not stored (the flow editor's test panel): `history` in
 * chronological order, the customer's last; its last `maxMessages` are sent.
 */
export const flowAiReplyTo = async (
  em: EntityManager,
  settings: AiNodeSettings,
  customerName: string,
  history: { fromMe: boolean; text: string }[],
  timeoutMs: number,
): Promise<{ text: string; handoff: boolean }> => {
  const turns: ChatTurn[] = [{ role: 'system', content: systemPrompt(settings, customerName) }];
  for (const m of history.slice(-settings.maxMessages)) if (m.text.trim()) turns.push({ role: m.fromMe ? 'assistant' : 'user', content: m.text.trim() });
  return complete(em, settings, turns, timeoutMs);
};
