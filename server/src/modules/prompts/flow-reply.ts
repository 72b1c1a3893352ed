import type { EntityManager } from '@mikro-orm/postgresql';
import { PROMPT_DEFAULTS } from '@atrium/shared';
import type { Ticket } from '../tickets/ticket.entity.js';
import { chatCompletion } from './ai-client.js';
import { chatTurns, readReply } from './prompt.step.js';
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
  const model = settings.model || PROMPT_DEFAULTS.model;
  const turns = await chatTurns(em, settings, ticket, uptoId, {});
  const reply = await chatCompletion(settings.apiKey, { model, messages: turns, maxTokens: settings.maxTokens, temperature: settings.temperature }, timeoutMs);
  await recordUsage(em, { kind: 'reply', model, usage: reply.usage });
  return readReply(reply.text);
};
