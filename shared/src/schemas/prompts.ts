import { z } from 'zod';
import { idSchema, textSchema } from './common.js';

/**
 * AI prompts (spec 02 sections 3, 5 and 7; spec 04 section 9). The API key is write-only: reads say that
 * one is set and show its last 4 characters, never the key.
 */
export const PROMPT_DEFAULTS = { model: 'gpt-4.1-mini', maxTokens: 100, temperature: 1, maxMessages: 10 } as const;

/**
 * Models the dialog suggests (the model stays free text: a company may use a compatible provider).
 * `retires`: the provider's announced shutdown date; the spec's two defaults are on their way out.
 */
export const PROMPT_MODEL_SUGGESTIONS: readonly { value: string; label: string; retires?: string }[] = [
  { value: 'gpt-4.1-mini', label: 'GPT 4.1 mini' },
  { value: 'gpt-4.1', label: 'GPT 4.1' },
  { value: 'gpt-5-mini', label: 'GPT 5 mini' },
  { value: 'gpt-4o-mini', label: 'GPT 4.0', retires: '2027-01-14' },
  { value: 'gpt-3.5-turbo-1106', label: 'GPT 3.5 turbo', retires: '2026-10-23' },
];

export const PROMPTS_PAGE_SIZE = 20;
/** What the reply of a prompt must start with to hand the conversation to a person (spec 04 section 9). */
export const PROMPT_HANDOFF_MARKER = 'Ação: Transferir para o setor de atendimento';

const fields = {
  name: textSchema.trim().min(5).max(100),
  prompt: textSchema.trim().min(50).max(20000),
  model: textSchema.trim().min(1).max(100).regex(/^[\w.:/-]+$/, 'letters, digits and . : / - _ only'),
  maxTokens: z.coerce.number().int().min(1).max(32000),
  // Step 0.1 on the screen; the server keeps one decimal.
  temperature: z.coerce.number().min(0).max(1).transform((v) => Math.round(v * 10) / 10),
  apiKey: textSchema.trim().min(8).max(500),
  queueId: idSchema,
  maxMessages: z.coerce.number().int().min(1).max(100),
};

/** POST /prompt: every field required (spec 02 section 5); the defaults are the form's. */
export const createPromptSchema = z.object({
  name: fields.name,
  prompt: fields.prompt,
  model: fields.model,
  maxTokens: fields.maxTokens,
  temperature: fields.temperature,
  apiKey: fields.apiKey,
  queueId: fields.queueId,
  maxMessages: fields.maxMessages,
});
export type CreatePromptInput = z.infer<typeof createPromptSchema>;

/** PUT /prompt/{id}: what is sent changes; an empty apiKey keeps the stored one. */
export const updatePromptSchema = z.object({
  name: fields.name.optional(),
  prompt: fields.prompt.optional(),
  model: fields.model.optional(),
  maxTokens: fields.maxTokens.optional(),
  temperature: fields.temperature.optional(),
  apiKey: z.union([z.literal(''), fields.apiKey]).optional(),
  queueId: fields.queueId.optional(),
  maxMessages: fields.maxMessages.optional(),
});
export type UpdatePromptInput = z.infer<typeof updatePromptSchema>;

/** POST /prompt/assist/suggest and /prompt/assist/summary: the agent's ticket. */
export const promptAssistSchema = z.object({ ticketId: idSchema });
export type PromptAssistInput = z.infer<typeof promptAssistSchema>;
export const promptAssistQuerySchema = z.object({ ticketId: idSchema });

export interface PromptView<D = string> {
  id: number;
  name: string;
  prompt: string;
  model: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  queueId: number;
  queue: { id: number; name: string; color: string } | null;
  /** Write-only: whether one is stored and its last 4 characters. */
  hasApiKey: boolean;
  apiKeyLast4: string;
  companyId: number;
  createdAt: D;
  updatedAt: D;
}

/** `company-{id}-prompt`. */
export type PromptEventPayload<D = string> = { action: 'create' | 'update'; record: PromptView<D> } | { action: 'delete'; id: number };

/** GET /prompt/usage: tokens the company used, per month and kind. */
export interface PromptUsageView {
  month: string;
  kind: 'reply' | 'transcription' | 'suggestion' | 'summary' | 'test';
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** GET /prompt/assist?ticketId: whether the agent's conversation offers "Suggest a reply" and "Summarise". */
export interface PromptAssistAvailability {
  available: boolean;
  promptId: number | null;
}
