import { randomUUID } from 'node:crypto';
import { startProtocolServer, type Reply } from './protocol-server.js';

/**
 * A local server speaking Typebot's chat API (research/automation-anchors.md 3a): POST
 * /api/v1/typebots/{publicId}/startChat and POST /api/v1/sessions/{sessionId}/continueChat, with markdown
 * text bubbles, choice inputs, wait actions and 404 for a session it does not know. `flow` decides what
 * the bot answers to each customer text; a test may also make the next call fail.
 */
export interface TypebotTurn {
  messages: { id?: string; type: string; content: Record<string, unknown> }[];
  input?: { type: string; items?: { id: string; content: string }[] };
  clientSideActions?: Record<string, unknown>[];
}

export const text = (markdown: string, id: string = randomUUID()) => ({ id, type: 'text', content: { type: 'markdown', markdown } });

export const startTypebotServer = async (slug: string, port = 0) => {
  const sessions = new Map<string, string[]>();
  const state = {
    /** The bot's answer to `said` (undefined at the start of a session). */
    flow: (said: string | undefined, _session: string[]): TypebotTurn => ({
      messages: [text(said === undefined ? '**Olá**, bem-vindo!' : `Você disse: ${said}`)],
    }),
    failNext: null as Reply | null,
  };
  const server = await startProtocolServer((req) => {
    if (state.failNext) {
      const reply = state.failNext;
      state.failNext = null;
      return reply;
    }
    const start = new RegExp(`^/api/v1/typebots/([^/]+)/startChat$`).exec(req.path);
    if (req.method === 'POST' && start) {
      if (decodeURIComponent(start[1]) !== slug) return { status: 404, body: { message: 'Typebot not found', code: 'NOT_FOUND' } };
      const sessionId = randomUUID();
      sessions.set(sessionId, []);
      if (req.json?.isOnlyRegistering) return { body: { sessionId, typebot: { id: slug, version: '6' }, messages: [] } };
      return { body: { sessionId, typebot: { id: slug, version: '6' }, ...state.flow(undefined, sessions.get(sessionId)!) } };
    }
    const cont = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(req.path);
    if (req.method === 'POST' && cont) {
      const session = sessions.get(decodeURIComponent(cont[1]));
      if (!session) return { status: 404, body: { message: 'Session not found.', code: 'NOT_FOUND' } };
      const said = req.json?.message?.text ?? req.json?.message;
      session.push(said);
      return { body: state.flow(said, session) };
    }
    return { status: 404, body: { message: 'Not found' } };
  }, port);
  return {
    ...server,
    state,
    sessions,
    starts: () => server.requests.filter((r) => r.path.endsWith('/startChat')),
    continues: () => server.requests.filter((r) => r.path.endsWith('/continueChat')),
    forget: () => sessions.clear(),
  };
};
