import path from 'node:path';
import type { OutboundFile } from '../outbox/index.js';
import { HttpTimeoutError, httpRequest, RefusedAddressError } from './outbound-http.js';
import type { QueueIntegration } from './queue-integration.entity.js';
import {
  bubbleOutput,
  choiceLines,
  continueChat,
  normalised,
  pickChoice,
  startChat,
  TypebotError,
  TypebotSessionGone,
  waitsAfter,
  type TypebotAnswer,
  type TypebotChoice,
  type TypebotOutput,
} from './typebot.js';

/**
 * One exchange with Typebot, as WhatsApp messages: what the queue integration (integration.step.ts) and a
 * flow's Typebot node (modules/flows) both need — Typebot's bubbles and choice lists turned into texts and
 * downloaded files, its "#" commands read, its unknown-answer text replaced.
 */
export type Prepared = { kind: 'text'; body: string } | { kind: 'file'; file: OutboundFile };

export interface TypebotHttp {
  timeoutMs: number;
  allowPrivateNetwork: boolean;
}

const MEDIA_MAX_BYTES = 16 * 1024 * 1024;

/** Downloads Typebot's media (through the same address guard); a file that cannot be had is sent as its link. */
export const prepare = async (http: TypebotHttp, outputs: TypebotOutput[]): Promise<Prepared[]> => {
  const prepared: Prepared[] = [];
  for (const output of outputs) {
    if (output.kind === 'text') {
      prepared.push({ kind: 'text', body: output.body });
      continue;
    }
    try {
      const res = await httpRequest(output.url, { ...http, maxBytes: MEDIA_MAX_BYTES });
      if (res.status < 200 || res.status >= 300) throw new TypebotError(res.status);
      const mimetype = String(res.headers['content-type'] ?? '').split(';')[0].trim() || `${output.mediaType}/*`;
      const filename = path.basename(new URL(output.url).pathname) || output.mediaType;
      prepared.push({ kind: 'file', file: { data: res.body, mimetype, filename } });
    } catch {
      prepared.push({ kind: 'text', body: output.url });
    }
  }
  return prepared;
};

const INVALID_REPLY = 'Invalid message. Please, try again.';

export interface TypebotCommand {
  stopBot?: boolean;
  queueId?: number;
  userId?: number;
}

/** A "#" JSON command in Typebot's text (spec 04 section 10): stopBot, queueId, queueId + userId. */
export const readCommand = (text: string): TypebotCommand | null => {
  if (!text.startsWith('#')) return null;
  try {
    const parsed = JSON.parse(text.slice(1)) as Record<string, unknown>;
    if (!parsed || typeof parsed !== 'object') return null;
    const id = (v: unknown) => (Number.isInteger(Number(v)) && Number(v) > 0 ? Number(v) : undefined);
    return { stopBot: parsed.stopBot === true || parsed.stopBot === 'true', queueId: id(parsed.queueId), userId: id(parsed.userId) };
  } catch {
    return null;
  }
};

/** What Typebot answered, as WhatsApp messages: its bubbles, then a choice input as numbered lines. */
export const typebotOutputs = (integration: QueueIntegration, answer: TypebotAnswer): { outputs: TypebotOutput[]; choices: TypebotChoice[] | null } => {
  const outputs = answer.messages.map(bubbleOutput).filter((o): o is TypebotOutput => o !== null);
  for (const output of outputs) {
    if (output.kind === 'text' && output.body === INVALID_REPLY && integration.typebotUnknownMessage) output.body = integration.typebotUnknownMessage;
  }
  const items = answer.input?.type === 'choice input' && Array.isArray(answer.input.items) ? answer.input.items : null;
  if (items && items.length > 0) outputs.push({ kind: 'text', body: choiceLines(items) });
  if (outputs.length === 0 && integration.typebotUnknownMessage) outputs.push({ kind: 'text', body: integration.typebotUnknownMessage });
  return { outputs, choices: items };
};

/** Why a call failed, in a few words for a note or a log (never a secret: no URL, no body). */
export const typebotFailure = (err: unknown): string => {
  if (err instanceof RefusedAddressError) return 'ERR_INTEGRATION_URL_REFUSED';
  if (err instanceof HttpTimeoutError) return 'timeout';
  if (err instanceof TypebotError) return `HTTP ${err.status}`;
  if (err instanceof TypebotSessionGone) return 'HTTP 404';
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  return 'error';
};

/** The wait actions still to honour: seconds after the bubble of that id (undefined: before the first). */
export type TypebotWaits = [string | undefined, number][];

/** Outputs before the first wait, and the rest with the waits still to honour. */
export const splitAtWait = (outputs: TypebotOutput[], waits: TypebotWaits) => {
  const wait = new Map(waits);
  const before = wait.get(undefined);
  if (before) return { now: [], seconds: before, rest: outputs, waits: waits.filter(([id]) => id !== undefined) };
  for (let i = 0; i < outputs.length; i += 1) {
    const seconds = wait.get(outputs[i].bubbleId);
    if (seconds) return { now: outputs.slice(0, i + 1), seconds, rest: outputs.slice(i + 1), waits: waits.filter(([id]) => id !== outputs[i].bubbleId) };
  }
  return { now: outputs, seconds: 0, rest: [] as TypebotOutput[], waits: [] as TypebotWaits };
};

/** The customer said the integration's finish or restart keyword (compared trimmed, without case or accents). */
export const typebotKeyword = (integration: Pick<QueueIntegration, 'typebotKeywordFinish' | 'typebotKeywordRestart'>, text: string): 'finish' | 'restart' | null => {
  const said = normalised(text);
  if (!said) return null;
  if (integration.typebotKeywordFinish && said === normalised(integration.typebotKeywordFinish)) return 'finish';
  if (integration.typebotKeywordRestart && said === normalised(integration.typebotKeywordRestart)) return 'restart';
  return null;
};

/** Whether the session has expired (the integration's minutes, measured from the customer's previous message). */
export const typebotExpired = (integration: Pick<QueueIntegration, 'typebotExpires'>, lastInboundAt: string | undefined, at: Date): boolean => {
  const expiresMs = integration.typebotExpires * 60_000;
  return expiresMs > 0 && !!lastInboundAt && at.getTime() - new Date(lastInboundAt).getTime() > expiresMs;
};

/** What a flow keeps of its Typebot conversation between two customer messages. */
export interface TypebotFlowState {
  sessionId?: string;
  choices?: TypebotChoice[] | null;
  /** When the customer's previous message came (expiry is measured from it). */
  lastInboundAt?: string;
}

/** Bubbles that come after a wait action: sent `seconds` later (typebotFlowRest), with the waits after them. */
export interface TypebotLater {
  seconds: number;
  outputs: TypebotOutput[];
  waits: TypebotWaits;
}

export interface TypebotFlowTurn {
  /** What to send now, in order (up to a command, which is not sent; up to a wait action). */
  messages: Prepared[];
  state: TypebotFlowState;
  /**
   * Typebot is done with the conversation: it asks for nothing more (its flow reached an end), or it sent
   * a "#" command (stopBot, a queue or a user: in a flow, each gives the conversation back to the flow).
   * With `later`, once those are sent.
   */
  ended: boolean;
  /** What comes after a wait action (null: nothing). */
  later: TypebotLater | null;
}

/** Up to the first command: what to send, and whether Typebot gave the conversation back with it. */
const upToCommand = (prepared: Prepared[]) => {
  const commandAt = prepared.findIndex((p) => p.kind === 'text' && readCommand(p.body) !== null);
  return commandAt >= 0 ? { messages: prepared.slice(0, commandAt), command: true } : { messages: prepared, command: false };
};

/**
 * A flow's Typebot node, one turn: the start of the chat (with the customer's details as prefilled
 * variables; `text` is not forwarded, as the old product did, except to a bot that opens with a question)
 * or the customer's `text` on the session the flow keeps. A session Typebot forgot, or one older than the
 * integration's expiry (from the customer's previous message, `at`), is started again once. Wait actions
 * split the bubbles: what follows one comes back as `later`, as the queue integration sends it.
 */
export const typebotFlowTurn = async (
  http: TypebotHttp,
  integration: QueueIntegration,
  state: TypebotFlowState,
  input: { text: string | null; prefilled: Record<string, string | number>; at?: Date },
): Promise<TypebotFlowTurn> => {
  const at = input.at ?? new Date();
  const start = async () => {
    const started = await startChat(integration.urlN8N, integration.typebotSlug, { prefilledVariables: input.prefilled }, http);
    if (!started.sessionId) throw new TypebotError(502);
    if (started.messages.length === 0 && started.input && input.text) return { ...(await continueChat(integration.urlN8N, started.sessionId, input.text, http)), sessionId: started.sessionId };
    return started;
  };
  const sessionId = state.sessionId && !typebotExpired(integration, state.lastInboundAt, at) ? state.sessionId : undefined;
  let answer: TypebotAnswer;
  if (!sessionId || input.text === null) answer = await start();
  else {
    const choice = state.choices ? pickChoice(state.choices, input.text) : undefined;
    try {
      answer = { ...(await continueChat(integration.urlN8N, sessionId, choice?.content ?? input.text, http)), sessionId };
    } catch (err) {
      if (!(err instanceof TypebotSessionGone)) throw err;
      answer = await start();
    }
  }
  const { outputs, choices } = typebotOutputs(integration, answer);
  const split = splitAtWait(outputs, [...waitsAfter(answer)]);
  const { messages, command } = upToCommand(await prepare(http, split.now));
  const nextState: TypebotFlowState = { sessionId: answer.sessionId, choices, ...(input.text !== null ? { lastInboundAt: at.toISOString() } : { lastInboundAt: state.lastInboundAt }) };
  const later = !command && split.seconds > 0 ? { seconds: split.seconds, outputs: split.rest, waits: split.waits } : null;
  return { messages, state: nextState, ended: command || !answer.input, later };
};

/** The bubbles after a wait action, once it is over: what to send now, what comes after the next wait, a command. */
export const typebotFlowRest = async (http: TypebotHttp, later: TypebotLater): Promise<{ messages: Prepared[]; later: TypebotLater | null; command: boolean }> => {
  const split = splitAtWait(later.outputs, later.waits);
  const { messages, command } = upToCommand(await prepare(http, split.now));
  return { messages, command, later: !command && split.seconds > 0 ? { seconds: split.seconds, outputs: split.rest, waits: split.waits } : null };
};
