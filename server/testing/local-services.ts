/* eslint-disable no-console -- a command-line tool for people: it reports on the console */
/**
 * The local protocol servers the tests use, started on fixed ports for trying the automation by hand
 * against `npm start` (no internet needed): `npm run local-services -w server`, then start the server with
 * the variables this prints. Each answers as its service's documented API does (see the files it imports).
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROMPT_HANDOFF_MARKER } from '@atrium/shared';
import { startDialogflowServer } from './dialogflow-server.js';
import { startOpenAiServer } from './openai-server.js';
import { startProtocolServer, type ReceivedRequest, type Reply } from './protocol-server.js';
import { startTypebotServer, text } from './typebot-server.js';
import { startWebhookReceiver } from './webhook-receiver.js';

const base = Number(process.env.LOCAL_SERVICES_PORT ?? 4010);
const lastUserTurn = (json: any): string => [...(json?.messages ?? [])].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '';

const openai = await startOpenAiServer(base);
openai.state.reply = (req) => {
  const said = lastUserTurn(req.json);
  if (/atendente|humano|pessoa/i.test(said)) return `${PROMPT_HANDOFF_MARKER}. Um momento, vou chamar alguém.`;
  return `(IA local) Você disse: "${said}". Diga "atendente" para falar com uma pessoa.`;
};

const typebot = await startTypebotServer('atendimento', base + 1);
typebot.state.flow = (said) => {
  if (said === undefined) {
    return { messages: [text('**Olá!** Este é o Typebot local.')], input: { type: 'choice input', items: [{ id: 'v', content: 'Vendas' }, { id: 's', content: 'Suporte' }] } };
  }
  return { messages: [text(`Você escolheu *${said}*. Escreva de novo para continuar.`)] };
};

// The webhook receiver checks signatures only when it knows the secret the integration showed once.
const secret = process.env.WEBHOOK_SECRET ?? '';
const answer = (req: ReceivedRequest): Reply => ({ body: { reply: `(webhook local) recebido: ${req.json?.message?.body ?? req.json?.event}` } });
const startWebhook = async () => {
  if (!secret) {
    return startProtocolServer((req) => {
      console.log(`[webhook] ${String(req.headers['webhook-id'])} ${req.json?.event} (signature not checked: set WEBHOOK_SECRET)`);
      return answer(req);
    }, base + 2);
  }
  const receiver = await startWebhookReceiver(base + 2);
  receiver.state.secret = secret;
  receiver.state.respond = answer;
  return receiver;
};
const webhook = await startWebhook();

const dialogflow = await startDialogflowServer(base + 3);
const keyFile = path.join(tmpdir(), 'atrium-local-dialogflow-key.json');
writeFileSync(keyFile, JSON.stringify(dialogflow.account, null, 2), { mode: 0o600 });

console.log(`Local services are up. Start the server with:

  OPENAI_BASE_URL=${openai.url}/v1 DIALOGFLOW_API_ENDPOINT=${dialogflow.url} INTEGRATIONS_ALLOW_PRIVATE_NETWORK=true npm start

AI prompts:     any API key (keys starting with sk-bad are refused)
Typebot:        URL ${typebot.url}, slug "atendimento"
n8n / webhook:  URL ${webhook.url}/hook (answers {"reply": ...}: turn on the synchronous mode)
Dialogflow:     project "${dialogflow.account.project_id}", service-account key in ${keyFile}
`);

const stop = async () => {
  await Promise.all([openai.close(), typebot.close(), webhook.close(), dialogflow.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
