import type { HttpOptions } from './outbound-http.js';
import { httpRequest } from './outbound-http.js';

/**
 * Typebot's chat API (research/automation-anchors.md 3a): POST {viewer}/api/v1/typebots/{publicId}/startChat
 * and POST {viewer}/api/v1/sessions/{sessionId}/continueChat, asking for markdown text bubbles.
 */
export interface TypebotBubble {
  id?: string;
  type: string;
  content?: { type?: string; markdown?: string; richText?: unknown[]; url?: string };
}

export interface TypebotChoice {
  id: string;
  content?: string;
}

export interface TypebotAnswer {
  sessionId?: string;
  messages: TypebotBubble[];
  input?: { type: string; items?: TypebotChoice[] } | null;
  clientSideActions?: { type: string; lastBubbleBlockId?: string; wait?: { secondsToWaitFor?: number | string } }[];
}

/** The session is gone (404: not found, or expired on Typebot's side). */
export class TypebotSessionGone extends Error {}
export class TypebotError extends Error {
  constructor(readonly status: number) {
    super(`typebot answered ${status}`);
  }
}

type Http = Pick<HttpOptions, 'timeoutMs' | 'allowPrivateNetwork'>;

const post = async (url: string, body: unknown, http: Http): Promise<TypebotAnswer> => {
  const res = await httpRequest(url, { ...http, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  if (res.status === 404) throw new TypebotSessionGone();
  if (res.status < 200 || res.status >= 300) throw new TypebotError(res.status);
  const answer = res.json<TypebotAnswer>();
  if (!answer || typeof answer !== 'object') throw new TypebotError(res.status);
  return { ...answer, messages: Array.isArray(answer.messages) ? answer.messages : [] };
};

const base = (url: string) => url.replace(/\/+$/, '');

export const startChat = (
  url: string,
  slug: string,
  input: { prefilledVariables?: Record<string, unknown>; message?: string; isOnlyRegistering?: boolean },
  http: Http,
) =>
  post(
    `${base(url)}/api/v1/typebots/${encodeURIComponent(slug)}/startChat`,
    {
      isStreamEnabled: false,
      textBubbleContentFormat: 'markdown',
      ...(input.message !== undefined ? { message: { type: 'text', text: input.message } } : {}),
      ...(input.prefilledVariables ? { prefilledVariables: input.prefilledVariables } : {}),
      ...(input.isOnlyRegistering ? { isOnlyRegistering: true } : {}),
    },
    http,
  );

export const continueChat = (url: string, sessionId: string, message: string, http: Http) =>
  post(`${base(url)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, { message: { type: 'text', text: message }, textBubbleContentFormat: 'markdown' }, http);

/**
 * Markdown as WhatsApp writes it: **bold** → *bold*, *italic* / _italic_ → _italic_, ~~strike~~ →
 * ~strike~, [text](url) → text (url), headings bold, underline dropped (the old server turned it into a
 * strikethrough), escapes removed.
 */
export const markdownToWhatsApp = (markdown: string): string => {
  const BOLD = '\u0001';
  return markdown
    .replace(/<\/?u>/gi, '')
    .replace(/^#{1,6}\s+(.+)$/gm, `${BOLD}$1${BOLD}`)
    .replace(/\*\*(.+?)\*\*/g, `${BOLD}$1${BOLD}`)
    .replace(/__(.+?)__/g, `${BOLD}$1${BOLD}`)
    .replace(/(?<![\w*\\])\*(?!\s)(.+?)(?<![\s\\])\*(?![\w*])/g, '_$1_')
    .replace(/~~(.+?)~~/g, '~$1~')
    .replace(/\[([^\]]+)\]\((\S+?)\)/g, (_m, label: string, href: string) => (label === href ? href : `${label} (${href})`))
    .replace(/\\([*_~`[\]()#\\])/g, '$1')
    .replaceAll(BOLD, '*')
    .trim();
};

/** Plain text of a rich-text bubble (when a Typebot answers in richText anyway). */
const richTextToPlain = (nodes: unknown[]): string =>
  nodes
    .map((node) => {
      const n = node as { text?: string; children?: unknown[]; type?: string };
      if (typeof n.text === 'string') return n.text;
      const inner = n.children ? richTextToPlain(n.children) : '';
      return n.type === 'p' || n.type === 'variable' ? `${inner}\n` : inner;
    })
    .join('')
    .trim();

export type TypebotOutput = { kind: 'text'; body: string; bubbleId?: string } | { kind: 'media'; url: string; mediaType: string; bubbleId?: string };

/** What a bubble says on WhatsApp: text, or a file to send (an embed becomes its link). */
export const bubbleOutput = (bubble: TypebotBubble): TypebotOutput | null => {
  const content = bubble.content ?? {};
  if (bubble.type === 'text') {
    const body = content.type === 'markdown' || typeof content.markdown === 'string' ? markdownToWhatsApp(content.markdown ?? '') : richTextToPlain(content.richText ?? []);
    return body ? { kind: 'text', body, bubbleId: bubble.id } : null;
  }
  if ((bubble.type === 'image' || bubble.type === 'audio' || bubble.type === 'video') && content.url) {
    return { kind: 'media', url: content.url, mediaType: bubble.type, bubbleId: bubble.id };
  }
  if (content.url) return { kind: 'text', body: content.url, bubbleId: bubble.id };
  return null;
};

/** The seconds to wait after a bubble (wait actions), by the bubble's id. */
export const waitsAfter = (answer: TypebotAnswer): Map<string | undefined, number> => {
  const waits = new Map<string | undefined, number>();
  for (const action of answer.clientSideActions ?? []) {
    const seconds = Number(action.wait?.secondsToWaitFor);
    if (action.type === 'wait' && Number.isFinite(seconds) && seconds > 0) waits.set(action.lastBubbleBlockId, Math.min(seconds, 3600));
  }
  return waits;
};

/** Comparable text: trimmed, lower case, without accents or repeated spaces. */
export const normalised = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** A choice input's items as numbered lines. */
export const choiceLines = (items: TypebotChoice[]) => items.map((item, i) => `${i + 1}. ${item.content ?? ''}`).join('\n');

/** The item the customer picked, by its number or its text (normalised); undefined when neither. */
export const pickChoice = (items: TypebotChoice[], answer: string): TypebotChoice | undefined => {
  const text = normalised(answer).replace(/[.)]$/, '');
  if (/^\d{1,3}$/.test(text)) return items[Number(text) - 1];
  return items.find((item) => normalised(item.content ?? '') === text);
};
