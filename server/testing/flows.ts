import type { FlowEdge, FlowGraphInput, FlowNodeInput } from '@atrium/shared';
import { customerSays, outbox } from './conversation.js';
import type { Api } from './helpers.js';

/** Flows for tests: a graph written as nodes and edges, saved through the API, and a customer talking to it. */
let seq = 0;

/** A node; `data` as the canvas saves it. Ids are short here (the canvas makes 30-character ones). */
export const node = (id: string, type: FlowNodeInput['type'], data: Record<string, unknown> = {}): FlowNodeInput =>
  ({ id, type, position: { x: (seq += 200), y: 0 }, data }) as FlowNodeInput;

export const start = () => node('1', 'start', { label: 'Inicio do fluxo' });
export const message = (id: string, text: string) => node(id, 'message', { label: text });
export const menu = (id: string, text: string, options: string[], extra: Record<string, unknown> = {}) =>
  node(id, 'menu', { message: text, arrayOption: options.map((value, i) => ({ number: i + 1, value })), ...extra });
export const question = (id: string, text: string, answerKey: string, extra: Record<string, unknown> = {}) =>
  node(id, 'question', { typebotIntegration: { message: text, answerKey }, ...extra });

export const edge = (source: string, target: string, sourceHandle?: string): FlowEdge => ({
  id: `e-${source}-${sourceHandle ?? 'a'}-${target}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

/** A flow of the admin's company with this canvas saved; answers its id. */
export const savedFlow = async (api: Api, token: string, graph: FlowGraphInput, name = `Flow ${Math.random().toString(36).slice(2, 8)}`) => {
  const created = await api.post('/flowbuilder', { name }, token);
  if (created.status !== 201) throw new Error(`flow: ${created.status} ${JSON.stringify(created.body)}`);
  const saved = await api.post('/flowbuilder/flow', { idFlow: created.body.id, ...graph }, token);
  if (saved.status !== 200) throw new Error(`save: ${saved.status} ${JSON.stringify(saved.body)}`);
  return created.body.id as number;
};

/** A phrase on the connection that starts the flow. */
export const phraseCampaign = async (api: Api, token: string, input: { flowId: number; whatsappId: number; phrase: string; matchType?: 'exact' | 'contains' }) => {
  const res = await api.post('/flowcampaign', { name: `Campaign ${input.phrase}`, ...input }, token);
  if (res.status !== 201) throw new Error(`campaign: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
};

/**
 * A customer on the sandbox phone: `says` waits until the automation has run (the sandbox route answers
 * after the inbound steps), `replies` waits for what the platform sent to this customer since the last look.
 */
export const customer = (api: Api, token: string, whatsappId: number, number: string, name = 'Maria Silva') => {
  let seen = 0;
  const mine = async () => (await outbox(api, token, whatsappId)).filter((m) => m.to.replace(/\D/g, '').endsWith(number));
  return {
    number,
    says: (body: string, extra: { replyId?: string } = {}) => customerSays(api, token, whatsappId, { from: number, name, body, ...extra }),
    /** Waits for exactly `count` new messages (the outbox sends after the request), and answers their bodies. */
    replies: async (count: number, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const all = await mine();
        if (all.length >= seen + count) {
          const fresh = all.slice(seen, seen + count);
          seen += count;
          return fresh;
        }
        if (Date.now() > deadline) throw new Error(`${number} received ${all.length - seen} new messages, not ${count}: ${JSON.stringify(all.slice(seen).map((m) => m.body))}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    /** Everything received so far that was not read by `replies`. */
    unread: async () => (await mine()).slice(seen),
    all: mine,
  };
};
