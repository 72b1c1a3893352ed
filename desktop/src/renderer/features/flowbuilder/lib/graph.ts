import {
  FLOW_DUPLICATE_OFFSET_PX,
  FLOW_NEW_NODE_GAP_PX,
  FLOW_NODE_ID_LENGTH,
  FLOW_START_NODE_ID,
  flowNodeSchema,
  type FlowEdge,
  type FlowGraphInput,
  type FlowNodeInput,
  type FlowNodeType,
} from '@atrium/shared';

/**
 * The canvas's pure rules, apart from React: node ids, where new and duplicated nodes go, the default data
 * of each type, the node's data schema for its dialog, and the draft kept in browser storage.
 */

/** A canvas node as the editor holds it: the saved node's fields (xyflow adds its own on top). */
export interface CanvasNode {
  id: string;
  type: FlowNodeType;
  position: { x: number; y: number };
  data: Record<string, unknown>;
  width?: number;
  measured?: { width?: number; height?: number };
}

export interface CanvasEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
}

export interface CanvasGraph {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new node's id: 30 random letters and digits (spec 02 "Node"). */
export const newNodeId = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(FLOW_NODE_ID_LENGTH));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
};

const START_LABEL = 'Inicio do fluxo';

export const startNode = (): CanvasNode => ({ id: FLOW_START_NODE_ID, type: 'start', position: { x: 250, y: 100 }, data: { label: START_LABEL } });

/** The canvas of a flow never saved: its start alone. */
export const defaultGraph = (): CanvasGraph => ({ nodes: [startNode()], edges: [] });

/** What a node of each type holds when it is added (its dialog fills the rest). */
export const defaultData = (type: FlowNodeType): Record<string, unknown> => {
  switch (type) {
    case 'start':
      return { label: START_LABEL };
    case 'message':
      return { label: '' };
    case 'interval':
      return { sec: 5 };
    case 'condition':
      return { key: '', condition: 'equals', value: '' };
    case 'menu':
      return { message: '', arrayOption: [{ number: 1, value: '' }] };
    case 'randomizer':
      return { percent: 50 };
    case 'singleBlock':
      return { seq: [], elements: [] };
    case 'ticket':
      return { queue: { id: 0, name: '' } };
    case 'typebot':
      return { typebotIntegration: { id: 0, name: '' } };
    case 'openai':
      return { typebotIntegration: { name: '', apiKey: '', prompt: '', voice: 'texto', temperature: 1, maxTokens: 100, maxMessages: 10 } };
    case 'question':
      return { typebotIntegration: { message: '', answerKey: '' } };
    default:
      return {};
  }
};

const widthOf = (node: CanvasNode) => node.measured?.width ?? node.width ?? 220;

/** A new node goes right of the last one, at its height (spec 02 "Dialogs"). */
export const newNodePosition = (nodes: CanvasNode[]): { x: number; y: number } => {
  const last = nodes.at(-1);
  if (!last) return { x: 250, y: 100 };
  return { x: last.position.x + widthOf(last) + FLOW_NEW_NODE_GAP_PX, y: last.position.y };
};

/** Adds a node of `type` with `data`; a start replaces the one there (there is only one, id '1'). */
export const addNode = (graph: CanvasGraph, type: FlowNodeType, data: Record<string, unknown>): { graph: CanvasGraph; id: string } => {
  if (type === 'start') {
    const others = graph.nodes.filter((n) => n.type !== 'start');
    return { graph: { nodes: [{ ...startNode(), position: newNodePosition(others) }, ...others], edges: graph.edges }, id: FLOW_START_NODE_ID };
  }
  const node: CanvasNode = { id: newNodeId(), type, position: newNodePosition(graph.nodes), data };
  return { graph: { ...graph, nodes: [...graph.nodes, node] }, id: node.id };
};

/** A copy of the node with a new id, to the right of the rightmost node (its connections are not copied). */
export const duplicateNode = (graph: CanvasGraph, id: string): CanvasGraph => {
  const source = graph.nodes.find((n) => n.id === id);
  if (!source || source.type === 'start') return graph;
  const right = Math.max(...graph.nodes.map((n) => n.position.x));
  const data = structuredClone(source.data);
  // The server keeps an OpenAI node's key under the node's id: the copy needs its own, typed in its dialog
  // (one typed but not saved yet is copied along).
  if (source.type === 'openai') data.typebotIntegration = { ...(data.typebotIntegration as object), hasApiKey: false };
  const copy: CanvasNode = { id: newNodeId(), type: source.type, position: { x: right + FLOW_DUPLICATE_OFFSET_PX, y: source.position.y }, data };
  return { ...graph, nodes: [...graph.nodes, copy] };
};

/** Removes nodes (never the start) and every connection of theirs. */
export const removeNodes = (graph: CanvasGraph, ids: string[]): CanvasGraph => {
  const gone = new Set(ids.filter((id) => id !== FLOW_START_NODE_ID));
  return { nodes: graph.nodes.filter((n) => !gone.has(n.id)), edges: graph.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target)) };
};

/** The saved document's graph as the canvas holds it. */
export const fromDocument = (graph: FlowGraphInput | null): CanvasGraph => {
  if (!graph) return defaultGraph();
  return {
    nodes: graph.nodes.map((n) => ({ id: n.id, type: n.type, position: n.position, data: n.data as Record<string, unknown> })),
    edges: graph.connections.map((e, i) => ({ id: e.id ?? `e${i}-${e.source}-${e.target}`, source: e.source, target: e.target, sourceHandle: e.sourceHandle ?? null })),
  };
};

/** What POST /flowbuilder/flow takes: only the saved fields of each node and edge. */
export const toDocument = (graph: CanvasGraph): FlowGraphInput => ({
  nodes: graph.nodes.map((n) => ({ id: n.id, type: n.type, position: { x: Math.round(n.position.x), y: Math.round(n.position.y) }, data: n.data }) as FlowNodeInput),
  connections: graph.edges.map(
    (e): FlowEdge => ({ id: e.id, source: e.source, target: e.target, ...(e.sourceHandle ? { sourceHandle: e.sourceHandle } : {}) }),
  ),
});

/** The zod schema of a node type's data (the server's own, from @atrium/shared). */
export const nodeDataSchema = (type: FlowNodeType) => {
  const option = flowNodeSchema.options.find((o) => o.shape.type.value === type);
  if (!option) throw new Error(`no node type ${type}`);
  return option.shape.data;
};

/** JSON with object keys in order: the server answers a node's data in its schema's key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/** Whether two graphs save the same document (a draft that equals what is saved is no draft). */
export const sameDocument = (a: CanvasGraph, b: CanvasGraph): boolean => canonical(toDocument(a)) === canonical(toDocument(b));

/**
 * The draft: edits not saved yet, kept in browser storage at every change, per flow. It names the version
 * it was drawn over, so the editor can tell when the saved flow changed under it.
 */
export interface FlowDraft {
  version: number;
  graph: CanvasGraph;
  at: string;
}

const draftKey = (flowId: number) => `flowbuilder-draft-${flowId}`;

export const loadDraft = (flowId: number): FlowDraft | null => {
  try {
    const raw = localStorage.getItem(draftKey(flowId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as FlowDraft;
    return Array.isArray(draft?.graph?.nodes) && Array.isArray(draft.graph.edges) ? draft : null;
  } catch {
    return null;
  }
};

export const saveDraft = (flowId: number, version: number, graph: CanvasGraph): void => {
  try {
    localStorage.setItem(draftKey(flowId), JSON.stringify({ version, graph: toCanvasOnly(graph), at: new Date().toISOString() } satisfies FlowDraft));
  } catch {
    // Storage full or off: the beforeunload prompt still guards the edits.
  }
};

export const dropDraft = (flowId: number): void => localStorage.removeItem(draftKey(flowId));

/**
 * Only what the document keeps (xyflow's selection and measures are not part of a draft), and never a
 * third-party key: browser storage is no place for an OpenAI node's secrets (typed again if needed).
 */
const toCanvasOnly = (graph: CanvasGraph): CanvasGraph => {
  const kept = fromDocument(toDocument(graph));
  return {
    ...kept,
    nodes: kept.nodes.map((n) =>
      n.type === 'openai' ? { ...n, data: { ...n.data, typebotIntegration: { ...(n.data.typebotIntegration as object), apiKey: '' } } } : n,
    ),
  };
};

/** The question nodes' answer keys, stored under `variables` as the product family does (spec 02). */
export const storeVariables = (graph: CanvasGraph): void => {
  const keys = [
    ...new Set(graph.nodes.flatMap((n) => (n.type === 'question' ? [String((n.data.typebotIntegration as { answerKey?: string })?.answerKey ?? '')] : [])).filter(Boolean)),
  ];
  try {
    localStorage.setItem('variables', JSON.stringify(keys));
  } catch {
    // Only hints in the dialogs.
  }
};
