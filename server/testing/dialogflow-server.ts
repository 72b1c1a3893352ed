import { createVerify, generateKeyPairSync } from 'node:crypto';
import { startProtocolServer } from './protocol-server.js';

/**
 * A local server speaking Dialogflow ES's REST detectIntent (research/automation-anchors.md 3d):
 * POST /v2/projects/{project}/agent/sessions/{session}:detectIntent. It checks the bearer token the real
 * client library signs with the service account's key (a self-signed RS256 JWT) against the public key of
 * the account it issued, as Google would. `answer` decides the query result for a text.
 */
export const startDialogflowServer = async (port = 0) => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const account = {
    type: 'service_account',
    project_id: 'atrium-agent',
    private_key_id: 'k1',
    private_key: privateKey,
    client_email: 'bot@atrium-agent.iam.gserviceaccount.com',
    client_id: '1',
  };
  const verified = (authorization: string | undefined) => {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const [header, payload, signature] = token?.split('.') ?? [];
    if (!header || !payload || !signature) return false;
    const ok = createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(publicKey, Buffer.from(signature, 'base64url'));
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: string };
    return ok && claims.iss === account.client_email;
  };
  const state = {
    answer: (text: string): { fulfillmentMessages: { text: { text: string[] } }[]; intent: { displayName: string; endInteraction?: boolean } } => ({
      fulfillmentMessages: [{ text: { text: [`Entendi: ${text}`] } }],
      intent: { displayName: 'Default' },
    }),
    fail: false,
  };
  const server = await startProtocolServer((req) => {
    const route = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent/.exec(req.path);
    if (!route || req.method !== 'POST') return { status: 404, body: { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } } };
    if (!verified(req.headers.authorization as string | undefined)) {
      return { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } };
    }
    if (state.fail) return { status: 500, body: { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } } };
    const text = req.json?.queryInput?.text?.text ?? '';
    const result = state.answer(text);
    return {
      body: {
        responseId: `r-${server.requests.length}`,
        queryResult: { queryText: text, languageCode: req.json?.queryInput?.text?.languageCode, fulfillmentText: result.fulfillmentMessages[0]?.text.text[0] ?? '', ...result },
      },
    };
  }, port);
  const detections = () => server.requests.filter((r) => r.path.includes(':detectIntent'));
  return { ...server, account, state, detections };
};
