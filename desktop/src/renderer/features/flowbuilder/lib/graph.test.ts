import { beforeEach, describe, expect, it } from 'vitest';
import { FLOW_DUPLICATE_OFFSET_PX, FLOW_NEW_NODE_GAP_PX, flowGraphSchema } from '@atrium/shared';
import { addNode, defaultData, defaultGraph, dropDraft, duplicateNode, fromDocument, loadDraft, newNodeId, removeNodes, sameDocument, saveDraft, storeVariables, toDocument } from './graph';
import { dialogSchema, valuesOf } from '../components/node-dialog';

describe('the canvas rules', () => {
  beforeEach(() => localStorage.clear());

  it('makes 30-character alphanumeric node ids, never the same twice', () => {
    const ids = new Set(Array.from({ length: 200 }, newNodeId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{30}$/);
  });

  it('places a new node right of the last one at its height; a duplicate right of the rightmost one', () => {
    let g = defaultGraph();
    const added = addNode(g, 'message', { label: 'Oi' });
    g = added.graph;
    const [start, message] = g.nodes;
    expect(message.position).toEqual({ x: start.position.x + 220 + FLOW_NEW_NODE_GAP_PX, y: start.position.y });
    g = duplicateNode(g, added.id);
    const copy = g.nodes[2];
    expect(copy.id).not.toBe(added.id);
    expect(copy.id).toHaveLength(30);
    expect(copy.position.x).toBe(message.position.x + FLOW_DUPLICATE_OFFSET_PX);
    expect(copy.data).toEqual({ label: 'Oi' });
    // A copy's data is its own.
    (copy.data as { label: string }).label = 'changed';
    expect(g.nodes[1].data).toEqual({ label: 'Oi' });
  });

  it("a duplicated OpenAI node does not claim the original's kept key (the server keeps it by node id)", () => {
    const added = addNode(defaultGraph(), 'openai', { typebotIntegration: { name: 'IA', prompt: 'p', apiKey: '', hasApiKey: true } });
    const copy = duplicateNode(added.graph, added.id).nodes[2];
    expect(copy.data.typebotIntegration).toMatchObject({ name: 'IA', hasApiKey: false });
    expect(added.graph.nodes[1].data.typebotIntegration).toMatchObject({ hasApiKey: true });
  });

  it('adding a start replaces the one there; the start cannot be deleted, other nodes go with their edges', () => {
    let g = addNode(defaultGraph(), 'message', { label: 'a' }).graph;
    const m = g.nodes[1].id;
    g = { ...g, edges: [{ id: 'e1', source: '1', target: m }] };
    g = addNode(g, 'start', defaultData('start')).graph;
    expect(g.nodes.filter((n) => n.type === 'start')).toHaveLength(1);
    g = removeNodes(g, ['1', m]);
    expect(g.nodes.map((n) => n.id)).toEqual(['1']);
    expect(g.edges).toEqual([]);
  });

  it('saves what the server takes, and reads it back the same', () => {
    let g = addNode(defaultGraph(), 'menu', { message: 'Escolha', arrayOption: [{ number: 1, value: 'Vendas' }] }).graph;
    g = { ...g, edges: [{ id: 'e', source: '1', target: g.nodes[1].id, sourceHandle: null }] };
    const doc = toDocument(g);
    expect(flowGraphSchema.safeParse(doc).success).toBe(true);
    expect(doc.connections[0]).not.toHaveProperty('sourceHandle');
    expect(sameDocument(fromDocument(doc), g)).toBe(true);
  });

  it('keeps a draft per flow in browser storage, and drops it', () => {
    const g = addNode(defaultGraph(), 'message', { label: 'rascunho' }).graph;
    saveDraft(7, 3, g);
    expect(loadDraft(8)).toBeNull();
    const draft = loadDraft(7)!;
    expect(draft.version).toBe(3);
    expect(sameDocument(draft.graph, g)).toBe(true);
    dropDraft(7);
    expect(loadDraft(7)).toBeNull();
    localStorage.setItem('flowbuilder-draft-9', '{not json');
    // An OpenAI node's key never reaches browser storage.
    const ai = addNode(defaultGraph(), 'openai', { typebotIntegration: { name: 'IA', prompt: 'p', apiKey: 'sk-secret' } }).graph;
    saveDraft(10, 1, ai);
    expect(localStorage.getItem('flowbuilder-draft-10')).not.toMatch(/secret/);
    expect(loadDraft(9)).toBeNull();
  });

  it("stores the questions' answer keys under `variables`", () => {
    const g = addNode(defaultGraph(), 'question', { typebotIntegration: { message: 'Nome?', answerKey: 'nome' } }).graph;
    storeVariables(g);
    expect(JSON.parse(localStorage.getItem('variables')!)).toEqual(['nome']);
  });
});

describe('node dialogs check with the server schema, under the field concerned', () => {
  const errorsOf = (type: Parameters<typeof dialogSchema>[0], values: Record<string, unknown>) => {
    const result = dialogSchema(type).safeParse(values);
    return result.success ? [] : result.error.issues.map((i) => String(i.path[0]));
  };

  it('an interval is 1 to 120 seconds', () => {
    expect(errorsOf('interval', { sec: '' })).toEqual(['sec']);
    expect(errorsOf('interval', { sec: '121' })).toEqual(['sec']);
    expect(errorsOf('interval', { sec: '30' })).toEqual([]);
  });

  it('a menu needs its message and every option', () => {
    expect(errorsOf('menu', { ...valuesOf('menu', {}), message: 'Escolha', options: ['Vendas', ''] })).toEqual(['options']);
    expect(errorsOf('menu', { ...valuesOf('menu', {}), message: 'Escolha', options: ['Vendas', 'Suporte'], timeoutMinutes: '5' })).toEqual([]);
  });

  it('a question needs a variable name for its answer', () => {
    expect(errorsOf('question', { message: 'Nome?', answerKey: 'com espaço', retries: '', timeoutMinutes: '' })).toEqual(['answerKey']);
    expect(errorsOf('question', { message: 'Nome?', answerKey: 'nome', retries: '', timeoutMinutes: '' })).toEqual([]);
  });

  it('a ticket node needs a queue', () => {
    expect(errorsOf('ticket', { queueId: 0, queueName: '' })).toEqual(['queueId']);
    expect(errorsOf('ticket', { queueId: 3, queueName: 'Vendas' })).toEqual([]);
  });
});
