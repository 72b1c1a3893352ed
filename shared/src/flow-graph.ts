import type { FlowEdge, FlowGraph, FlowNode, FlowNodeType } from './schemas/flows.js';
import { FLOW_START_NODE_ID } from './schemas/flows.js';

/**
 * What the canvas and the engine agree on about a flow's shape: the outputs each node type has (an
 * edge's `sourceHandle` is the outcome that follows it), how an edge is read, and the editor's warnings.
 * A node's outcome picks exactly one edge; edges are followed, never the order nodes are stored in.
 */

/** The output every single-output node has; an edge saved without a handle means it. */
export const DEFAULT_HANDLE = 'a';
export const INVALID_HANDLE = 'invalid';
export const TIMEOUT_HANDLE = 'timeout';
export const menuHandle = (optionNumber: number) => `a${optionNumber}`;

/** Node types that wait for the customer's answer: they have "invalid" and "no reply" outputs. */
export const BLOCKING_NODE_TYPES: readonly FlowNodeType[] = ['menu', 'question'];
/** Node types that end the flow: they have no output. */
export const FINAL_NODE_TYPES: readonly FlowNodeType[] = ['ticket'];

export interface NodeOutput {
  handle: string;
  /** A main output (an option, a branch) rather than the blocking node's "invalid" or "no reply". */
  kind: 'main' | 'invalid' | 'timeout';
}

/** The outputs of a node, in the order the canvas draws them. */
export const nodeOutputs = (node: Pick<FlowNode, 'type' | 'data'> | { type: string; data: unknown }): NodeOutput[] => {
  const main = (handle: string): NodeOutput => ({ handle, kind: 'main' });
  const blocking: NodeOutput[] = [
    { handle: INVALID_HANDLE, kind: 'invalid' },
    { handle: TIMEOUT_HANDLE, kind: 'timeout' },
  ];
  switch (node.type) {
    case 'ticket':
      return [];
    case 'menu': {
      const options = ((node.data as { arrayOption?: { number: number }[] }).arrayOption ?? []).map((o) => main(menuHandle(o.number)));
      return [...options, ...blocking];
    }
    case 'question':
      return [main(DEFAULT_HANDLE), ...blocking];
    case 'randomizer':
      return [main('a'), main('b')];
    case 'condition':
      return [main('true'), main('false')];
    default:
      return [main(DEFAULT_HANDLE)];
  }
};

/** The output an edge leaves from: its handle, or the default one for an edge saved without. */
export const edgeHandle = (edge: Pick<FlowEdge, 'sourceHandle'>): string => edge.sourceHandle || DEFAULT_HANDLE;

/** Whether a node of this type may have an edge leaving from `handle`. */
export const hasOutput = (node: Pick<FlowNode, 'type' | 'data'>, handle: string): boolean =>
  nodeOutputs(node).some((o) => o.handle === handle);

/** The start node: the one of type start (its id is '1'). */
export const startNodeOf = (graph: Pick<FlowGraph, 'nodes'>): FlowNode | undefined =>
  graph.nodes.find((n) => n.type === 'start' && n.id === FLOW_START_NODE_ID) ?? graph.nodes.find((n) => n.type === 'start');

/** Node id → output handle → the node it leads to. */
export const edgeIndex = (graph: Pick<FlowGraph, 'connections'>): Map<string, Map<string, string>> => {
  const index = new Map<string, Map<string, string>>();
  for (const edge of graph.connections) {
    let out = index.get(edge.source);
    if (!out) index.set(edge.source, (out = new Map()));
    if (!out.has(edgeHandle(edge))) out.set(edgeHandle(edge), edge.target);
  }
  return index;
};

/** The problems that make a graph unsavable: what the server refuses and the canvas prevents. */
export interface GraphProblem {
  path: string;
  message: string;
}

export const graphProblems = (graph: FlowGraph): GraphProblem[] => {
  const problems: GraphProblem[] = [];
  const byId = new Map<string, FlowNode>();
  graph.nodes.forEach((node, i) => {
    if (byId.has(node.id)) problems.push({ path: `nodes.${i}.id`, message: 'repeated node id' });
    byId.set(node.id, node);
    if (node.type === 'start' && node.id !== FLOW_START_NODE_ID) problems.push({ path: `nodes.${i}.id`, message: "the start node's id is 1" });
    if (node.type === 'menu') {
      const numbers = node.data.arrayOption.map((o) => o.number);
      if (numbers.some((n, k) => n !== k + 1)) problems.push({ path: `nodes.${i}.data.arrayOption`, message: 'options are numbered 1, 2, 3...' });
    }
    if (node.type === 'singleBlock') {
      const cards = new Set(node.data.elements.map((e) => e.number));
      if (cards.size !== node.data.elements.length) problems.push({ path: `nodes.${i}.data.elements`, message: 'repeated card' });
      node.data.seq.forEach((ref, k) => {
        if (!cards.has(ref)) problems.push({ path: `nodes.${i}.data.seq.${k}`, message: 'no such card' });
      });
    }
  });
  if (graph.nodes.filter((n) => n.type === 'start').length !== 1) problems.push({ path: 'nodes', message: 'one start node' });
  const seen = new Set<string>();
  graph.connections.forEach((edge, i) => {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (!source) problems.push({ path: `connections.${i}.source`, message: 'no such node' });
    if (!target) problems.push({ path: `connections.${i}.target`, message: 'no such node' });
    if (!source || !target) return;
    if (target.type === 'start') problems.push({ path: `connections.${i}.target`, message: 'nothing leads into the start' });
    if (source.id === target.id) problems.push({ path: `connections.${i}.target`, message: 'a node cannot lead to itself' });
    const handle = edgeHandle(edge);
    if (!hasOutput(source, handle)) problems.push({ path: `connections.${i}.sourceHandle`, message: `no output "${handle}" on a ${source.type} node` });
    const key = `${edge.source}\u0000${handle}`;
    if (seen.has(key)) problems.push({ path: `connections.${i}.sourceHandle`, message: 'one connection per output' });
    seen.add(key);
  });
  return problems;
};

/** What the editor warns about (saving is still allowed): the flow would stop or hand over there. */
export type FlowWarning =
  | { kind: 'unconnected'; nodeId: string; handle: string }
  | { kind: 'invalidUnconnected'; nodeId: string }
  | { kind: 'timeoutWithoutEdge'; nodeId: string }
  | { kind: 'timeoutEdgeWithoutTime'; nodeId: string }
  | { kind: 'unreachable'; nodeId: string }
  | { kind: 'noStart' };

const timeoutOf = (node: FlowNode): number => (node.type === 'menu' || node.type === 'question' ? (node.data.timeoutMinutes ?? 0) : 0);

/**
 * The editor's warnings: outputs of a branching node left unconnected (an option, a branch: the flow
 * would stop there), a blocking node whose invalid answers have nowhere to go (a person takes over after
 * the retries), a "no reply" time without an edge or an edge without a time, and nodes the start cannot
 * reach. A single-output node without an edge is the end of the flow, not a warning.
 */
export const flowWarnings = (graph: Pick<FlowGraph, 'nodes' | 'connections'>): FlowWarning[] => {
  const warnings: FlowWarning[] = [];
  const index = edgeIndex(graph);
  const start = startNodeOf(graph);
  if (!start) warnings.push({ kind: 'noStart' });
  for (const node of graph.nodes) {
    const outs = index.get(node.id) ?? new Map<string, string>();
    const outputs = nodeOutputs(node);
    const branching = outputs.filter((o) => o.kind === 'main').length > 1;
    for (const output of outputs) {
      if (outs.has(output.handle)) continue;
      if (output.kind === 'main' && branching) warnings.push({ kind: 'unconnected', nodeId: node.id, handle: output.handle });
      if (output.kind === 'invalid') warnings.push({ kind: 'invalidUnconnected', nodeId: node.id });
    }
    if (BLOCKING_NODE_TYPES.includes(node.type)) {
      const minutes = timeoutOf(node);
      if (minutes > 0 && !outs.has(TIMEOUT_HANDLE)) warnings.push({ kind: 'timeoutWithoutEdge', nodeId: node.id });
      if (minutes <= 0 && outs.has(TIMEOUT_HANDLE)) warnings.push({ kind: 'timeoutEdgeWithoutTime', nodeId: node.id });
    }
  }
  if (start) {
    const reached = new Set([start.id]);
    const queue = [start.id];
    while (queue.length > 0) {
      for (const target of index.get(queue.shift()!)?.values() ?? []) {
        if (reached.has(target)) continue;
        reached.add(target);
        queue.push(target);
      }
    }
    for (const node of graph.nodes) if (!reached.has(node.id)) warnings.push({ kind: 'unreachable', nodeId: node.id });
  }
  return warnings;
};

/** Variable names the flow's questions capture (for the dialogs' {{...}} hints). */
export const capturedVariables = (graph: Pick<FlowGraph, 'nodes'>): string[] => [
  ...new Set(graph.nodes.flatMap((n) => (n.type === 'question' ? [n.data.typebotIntegration.answerKey] : []))),
];

/** The message variables every flow may use besides what its questions capture. */
export const FLOW_BUILTIN_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'date', 'hora', 'number', 'email'] as const;
