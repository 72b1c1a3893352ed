import type { FlowGraph, FlowNode, FlowNodeOf } from '@atrium/shared';
import type { Sealer } from '../../secrets/sealed.js';

/**
 * The OpenAI nodes' secret (their API key) at rest: sealed with the server's integrations key
 * (secrets/sealed.ts) into the saved canvas, bound to the company (so a flow duplicated in the company
 * keeps it, and a graph copied to another company does not open). The API answers only whether a key is
 * kept (`hasApiKey`); a save without a new key keeps the node's previous one.
 */
type Settings = FlowNodeOf<'openai'>['data']['typebotIntegration'];
export type StoredOpenAiSettings = Settings & { apiKeySealed?: string };

/**
 * What graphs saved before voice went through OpenAI's text-to-speech may still hold (an Azure speech key,
 * sealed, and its region): never answered, dropped at the next save.
 */
interface LegacyVoiceFields {
  voiceKey?: unknown;
  voiceKeySealed?: unknown;
  hasVoiceKey?: unknown;
  voiceRegion?: unknown;
}

const context = (field: 'api_key', companyId: number) => `flows.openai.${field}:${companyId}`;

const settingsOf = (node: FlowNodeOf<'openai'>) => node.data.typebotIntegration as StoredOpenAiSettings & LegacyVoiceFields;

/** The canvas as it is answered: no key, sealed or not, only whether one is kept. */
export const withoutKeys = (graph: FlowGraph): FlowGraph => ({
  ...graph,
  nodes: graph.nodes.map((node): FlowNode => {
    if (node.type !== 'openai') return node;
    const { apiKeySealed, apiKey: _k, hasApiKey: _a, voiceKey: _v, voiceKeySealed: _vs, hasVoiceKey: _h, voiceRegion: _r, ...settings } = settingsOf(node);
    return { ...node, data: { ...node.data, typebotIntegration: { ...settings, apiKey: '', hasApiKey: !!apiKeySealed } } } as FlowNode;
  }),
});

/**
 * The canvas as it is stored: each OpenAI node's keys sealed — a new one typed in the dialog, else the one
 * the node (by id) had in `previous` — and never in clear. Answers the paths of nodes left without an API key.
 */
export const sealKeys = (sealer: Sealer, companyId: number, graph: FlowGraph, previous: FlowGraph | null): { graph: FlowGraph; missing: string[] } => {
  const before = new Map((previous?.nodes ?? []).flatMap((n) => (n.type === 'openai' ? [[n.id, settingsOf(n)] as const] : [])));
  const missing: string[] = [];
  const nodes = graph.nodes.map((node, i): FlowNode => {
    if (node.type !== 'openai') return node;
    const { apiKey, hasApiKey: _a, apiKeySealed: _s, voiceKey: _v, voiceKeySealed: _vs, hasVoiceKey: _h, voiceRegion: _r, ...settings } = settingsOf(node);
    const old = before.get(node.id);
    const apiKeySealed = apiKey ? sealer.seal(apiKey, context('api_key', companyId)) : (old?.apiKeySealed ?? '');
    if (!apiKeySealed) missing.push(`nodes.${i}.data.typebotIntegration.apiKey`);
    const stored: StoredOpenAiSettings = { ...settings, apiKey: '', apiKeySealed };
    return { ...node, data: { ...node.data, typebotIntegration: stored } } as FlowNode;
  });
  return { graph: { ...graph, nodes }, missing };
};

/** The node's API key, opened for its call (null when it has none, or it does not open here). */
export const openNodeKey = (sealer: Sealer, companyId: number, node: FlowNodeOf<'openai'>): string | null => {
  const sealed = settingsOf(node).apiKeySealed;
  if (!sealed) return null;
  try {
    return sealer.open(sealed, context('api_key', companyId));
  } catch {
    return null;
  }
};
