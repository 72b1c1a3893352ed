import { Webhook } from 'standardwebhooks';
import { startProtocolServer, type ReceivedRequest, type Reply } from './protocol-server.js';

/**
 * An n8n-style webhook receiver: it verifies each request's Standard Webhooks signature with the
 * `standardwebhooks` package and the secret the integration showed once, and checks the auth header n8n
 * would; `respond` decides the answer (the synchronous reply, or an error to be retried).
 */
export const startWebhookReceiver = async (port = 0) => {
  const state = {
    secret: '',
    expectAuthorization: null as string | null,
    respond: (_req: ReceivedRequest): Reply => ({ body: { ok: true } }),
  };
  const verified: { id: string; payload: any }[] = [];
  const server = await startProtocolServer((req) => {
    if (state.expectAuthorization !== null && req.headers.authorization !== state.expectAuthorization) return { status: 403, body: { message: 'Authorization data is wrong!' } };
    try {
      const payload = new Webhook(state.secret).verify(req.text, req.headers as Record<string, string>);
      verified.push({ id: String(req.headers['webhook-id']), payload });
    } catch {
      return { status: 401, body: { message: 'bad signature' } };
    }
    return state.respond(req);
  }, port);
  return { ...server, state, verified };
};
