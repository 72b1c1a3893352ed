import OpenAI, { toFile } from 'openai';

/**
 * The company's AI provider through the official `openai` package: a client per call (a changed key takes
 * effect at once; nothing cached per connection as the old server did), with a timeout and one retry.
 * The base URL is the package's own: OPENAI_BASE_URL when set (a compatible provider or a proxy), else
 * OpenAI's. The key is never logged: errors are reduced to a code before they leave this file.
 */
export type AiFailure = 'ERR_AI_INVALID_API_KEY' | 'ERR_AI_QUOTA' | 'ERR_AI_TIMEOUT' | 'ERR_AI_UNAVAILABLE';

export class AiError extends Error {
  constructor(
    readonly code: AiFailure,
    readonly status: number | null,
  ) {
    super(code);
    this.name = 'AiError';
  }
}

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface AiUsageFigures {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

const client = (apiKey: string, timeoutMs: number) => new OpenAI({ apiKey, timeout: timeoutMs, maxRetries: 1 });

/** Why a call failed, as one of our codes (the provider's message may carry the key's prefix: not kept). */
const failure = (err: unknown): AiError => {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new AiError('ERR_AI_TIMEOUT', null);
  if (err instanceof OpenAI.APIError) {
    const status = typeof err.status === 'number' ? err.status : null;
    if (status === 401 || status === 403) return new AiError('ERR_AI_INVALID_API_KEY', status);
    if (status === 429) return new AiError('ERR_AI_QUOTA', status);
    return new AiError('ERR_AI_UNAVAILABLE', status);
  }
  return new AiError('ERR_AI_UNAVAILABLE', null);
};

/** Reasoning models take max_completion_tokens; the classic ones (and most compatible providers) max_tokens. */
const tokenLimit = (model: string, maxTokens: number) =>
  /^(o\d|gpt-5)/i.test(model) ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens };

export const chatCompletion = async (
  apiKey: string,
  input: { model: string; messages: ChatTurn[]; maxTokens: number; temperature: number },
  timeoutMs: number,
): Promise<{ text: string; usage: AiUsageFigures }> => {
  try {
    const completion = await client(apiKey, timeoutMs).chat.completions.create({
      model: input.model,
      messages: input.messages,
      temperature: input.temperature,
      ...tokenLimit(input.model, input.maxTokens),
    });
    const text = completion.choices[0]?.message?.content ?? '';
    return {
      text: text.trim(),
      usage: {
        promptTokens: completion.usage?.prompt_tokens ?? 0,
        completionTokens: completion.usage?.completion_tokens ?? 0,
        totalTokens: completion.usage?.total_tokens ?? 0,
      },
    };
  } catch (err) {
    throw failure(err);
  }
};

/** A voice note as text (whisper-1). */
export const transcribe = async (apiKey: string, audio: { data: Buffer; filename: string; mimetype: string }, timeoutMs: number): Promise<string> => {
  try {
    const result = await client(apiKey, timeoutMs).audio.transcriptions.create({
      file: await toFile(audio.data, audio.filename, { type: audio.mimetype }),
      model: 'whisper-1',
    });
    return result.text.trim();
  } catch (err) {
    throw failure(err);
  }
};

/**
 * The cheap check of a key on save (GET /models, as Chatwoot does): refused only when the provider says
 * the key is not valid; a provider out of reach does not stop an admin from saving.
 */
export const checkApiKey = async (apiKey: string, timeoutMs: number): Promise<'valid' | 'invalid' | 'unknown'> => {
  try {
    await client(apiKey, timeoutMs).models.list();
    return 'valid';
  } catch (err) {
    const reason = failure(err);
    return reason.code === 'ERR_AI_INVALID_API_KEY' ? 'invalid' : 'unknown';
  }
};

/** The voices OpenAI's text-to-speech speaks with. */
export type AiVoice = 'alloy' | 'ash' | 'coral' | 'echo' | 'nova' | 'onyx' | 'sage' | 'shimmer';

/** `text` spoken (tts-1), as Ogg/Opus: what WhatsApp plays as a voice note. */
export const speak = async (apiKey: string, input: { text: string; voice: AiVoice }, timeoutMs: number): Promise<Buffer> => {
  try {
    const res = await client(apiKey, timeoutMs).audio.speech.create({ model: 'tts-1', voice: input.voice, input: input.text.slice(0, 4096), response_format: 'opus' });
    return Buffer.from(await res.arrayBuffer());
  } catch (err) {
    throw failure(err);
  }
};
