import type { FlowGraph, FlowNode, FlowNodeOf } from '@atrium/shared';
import type { Sealer } from '../../secrets/sealed.js';

/**
 * The OpenAI nodes' secrets (their API key and speech key) at rest: sealed with the server's integrations
 * key (secrets/sealed.ts) into the saved canvas, bound to the company (so a flow duplicated in the company
 * keeps them, and a graph copied to another company does not open). The API answers only whether a key
 * is kept (`hasApiKey`, `hasVoiceKey`); a save without a new key keeps the node's previous one.
 */
type Settings = FlowNodeOf<'openai'>['data']['typebotIntegration'];
export type StoredOpenAiSettings = Settings & { apiKeySealed?: string; voiceKeySealed?: string };

const context = (field: 'api_key' | 'voice_key', companyId: number) => `flows.openai.${field}:${companyId}`;

const settingsOf = (node: FlowNodeOf<'openai'>) => node.data.typebotIntegration as StoredOpenAiSettings;

/** The canvas as it is answered: no key, sealed or not, only whether one is kept. */
export const withoutKeys = (graph: FlowGraph): FlowGraph => ({
  ...graph,
  nodes: graph.nodes.map((node): FlowNode => {
    if (node.type !== 'openai') return node;
    const { apiKeySealed, voiceKeySealed, apiKey: _k, voiceKey: _v, hasApiKey: _a, hasVoiceKey: _h, ...settings } = settingsOf(node);
    return {
      ...node,
      data: { ...node.data, typebotIntegration: { ...settings, apiKey: '', voiceKey: '', hasApiKey: !!apiKeySealed, hasVoiceKey: !!voiceKeySealed } },
    } as FlowNode;
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
    const { apiKey, voiceKey, hasApiKey: _a, hasVoiceKey: _h, apiKeySealed: _s, voiceKeySealed: _vs, ...settings } = settingsOf(node);
    const old = before.get(node.id);
    const apiKeySealed = apiKey ? sealer.seal(apiKey, context('api_key', companyId)) : (old?.apiKeySealed ?? '');
    const voiceKeySealed = voiceKey ? sealer.seal(voiceKey, context('voice_key', companyId)) : (old?.voiceKeySealed ?? '');
    if (!apiKeySealed) missing.push(`nodes.${i}.data.typebotIntegration.apiKey`);
    const stored: StoredOpenAiSettings = { ...settings, apiKey: '', voiceKey: '', apiKeySealed, voiceKeySealed };
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
