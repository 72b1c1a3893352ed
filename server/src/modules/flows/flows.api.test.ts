import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_MEDIA_RULES } from '@atrium/shared';
import { connectSandbox, ticketOf } from '../../../testing/conversation.js';
import { customer, edge, menu, message, node, phraseCampaign, question, savedFlow, start } from '../../../testing/flows.js';
import { expectInvalid } from '../../../testing/expect.js';
import { createTenant, startTestApp, type ApiResponse, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { recordedWebm } from '../../../testing/voice.js';
import { toVoiceNote } from '../../media/voice-note.js';

/** The flow builder's and flow campaigns' endpoints: the contract, validation, permissions, tenant isolation. */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let waA: number;
let waB: number;

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'FlowApiA');
  b = await createTenant(t, 'FlowApiB');
  waA = (await connectSandbox(t.api, a.admin.token)).id;
  waB = (await connectSandbox(t.api, b.admin.token)).id;
});
afterAll(() => t?.stop());

const sql = <T = any>(query: string, params: unknown[] = []): Promise<T[]> => t.app.orm.em.fork().getConnection().execute(query, params);

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(64, 2)]);

const upload = async (endpoint: 'img' | 'audio' | 'content', token: string, files: { data: Buffer; name: string; type: string }[]) => {
  const form = new FormData();
  form.append('fromMe', 'true');
  for (const f of files) form.append('medias', new Blob([f.data], { type: f.type }), f.name);
  const res = await fetch(`${t.app.url}/flowbuilder/${endpoint}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json(), headers: res.headers } as ApiResponse;
};

const simpleGraph = { nodes: [start(), message('m', 'Oi')], connections: [edge('1', 'm')] };

describe('flows', () => {
  it('create, list with search and pages, rename, switch off, delete', async () => {
    const created = await t.api.post('/flowbuilder', { name: 'Boas-vindas' }, a.admin.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Boas-vindas', active: true, version: 0, companyId: a.companyId });
    for (let i = 0; i < 21; i += 1) expect((await t.api.post('/flowbuilder', { name: `Lote ${String(i).padStart(2, '0')}` }, a.admin.token)).status).toBe(201);
    const page1 = await t.api.get('/flowbuilder?searchParam=lote', a.admin.token);
    expect(page1.body.flows).toHaveLength(20);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await t.api.get('/flowbuilder?searchParam=lote&pageNumber=2', a.admin.token);
    expect(page2.body).toMatchObject({ hasMore: false, flows: [{ name: 'Lote 20' }] });

    const renamed = await t.api.put('/flowbuilder', { flowId: created.body.id, name: 'Recepção', active: false }, a.admin.token);
    expect(renamed.body).toMatchObject({ id: created.body.id, name: 'Recepção', active: false });
    expect((await t.api.del(`/flowbuilder/${created.body.id}`, a.admin.token)).status).toBe(200);
    expect((await t.api.get(`/flowbuilder/flow/${created.body.id}`, a.admin.token)).body).toEqual({ error: 'ERR_NO_FLOW_FOUND' });
  });

  it('names: 2 to 50 characters, unique in the company whatever the case', async () => {
    expect((await t.api.post('/flowbuilder', { name: 'x' }, a.admin.token)).body.error).toBe('ERR_VALIDATION');
    expect((await t.api.post('/flowbuilder', { name: 'x'.repeat(51) }, a.admin.token)).body.error).toBe('ERR_VALIDATION');
    expect((await t.api.post('/flowbuilder', { name: 'Único' }, a.admin.token)).status).toBe(201);
    expect(await t.api.post('/flowbuilder', { name: 'ÚNICO' }, a.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_FLOW_NAME_ALREADY_EXISTS' } });
    // Another company may use it.
    expect((await t.api.post('/flowbuilder', { name: 'Único' }, b.admin.token)).status).toBe(201);
  });

  it('a new flow has no canvas until saved; saving makes a new version, what runs from then on', async () => {
    const { body: flow } = await t.api.post('/flowbuilder', { name: 'Versões' }, a.admin.token);
    expect((await t.api.get(`/flowbuilder/flow/${flow.id}`, a.admin.token)).body.flow).toMatchObject({ id: flow.id, flow: null, version: 0 });
    const saved = await t.api.post('/flowbuilder/flow', { idFlow: flow.id, ...simpleGraph }, a.admin.token);
    expect(saved.status).toBe(200);
    expect(saved.body.flow).toMatchObject({ version: 1, flow: { nodes: [{ id: '1', type: 'start' }, { id: 'm', data: { label: 'Oi' } }], connections: [{ source: '1', target: 'm' }] } });
    await t.api.post('/flowbuilder/flow', { idFlow: flow.id, nodes: [start(), message('m', 'Oi de novo')], connections: [edge('1', 'm')] }, a.admin.token);
    const loaded = await t.api.get(`/flowbuilder/flow/${flow.id}`, a.admin.token);
    expect(loaded.body.flow).toMatchObject({ version: 2, flow: { nodes: [{}, { data: { label: 'Oi de novo' } }] } });
    // Versions no run uses are not kept.
    expect(await sql(`select version from flow_versions where flow_id = ?`, [flow.id])).toEqual([{ version: 2 }]);
  });

  it('what the client adds to nodes (selection, measures) is not stored', async () => {
    const { body: flow } = await t.api.post('/flowbuilder', { name: 'Limpo' }, a.admin.token);
    const nodes = [{ ...start(), selected: true, dragging: false, measured: { width: 10 } }];
    await t.api.post('/flowbuilder/flow', { idFlow: flow.id, nodes, connections: [] }, a.admin.token);
    const [row] = await sql(`select graph from flow_versions where flow_id = ?`, [flow.id]);
    expect(Object.keys(row.graph.nodes[0]).sort()).toEqual(['data', 'id', 'position', 'type']);
  });

  it('duplicate: a copy named " - copy" with the last saved canvas', async () => {
    const id = await savedFlow(t.api, a.admin.token, simpleGraph, 'Original');
    const copy = await t.api.post('/flowbuilder/duplicate', { flowId: id }, a.admin.token);
    expect(copy).toMatchObject({ status: 201, body: { name: 'Original - copy', version: 1 } });
    const again = await t.api.post('/flowbuilder/duplicate', { flowId: id }, a.admin.token);
    expect(again.body.name).toBe('Original - copy 2');
    const loaded = await t.api.get(`/flowbuilder/flow/${copy.body.id}`, a.admin.token);
    expect(loaded.body.flow.flow.nodes.map((n: { id: string }) => n.id)).toEqual(['1', 'm']);
  });

  it('delete: its campaigns go, connections stop using it, a conversation it held is let go', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, { nodes: [start(), question('q', 'Nome?', 'nome')], connections: [edge('1', 'q')] });
    const campaignId = await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: waA, phrase: 'apagar' });
    expect((await t.api.put(`/whatsapp/${waA}`, { flowIdWelcome: flowId, flowIdNotPhrase: flowId }, a.admin.token)).status).toBe(200);
    const c = customer(t.api, a.admin.token, waA, '5511955550001');
    await c.says('apagar');
    await c.replies(1);
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    expect(await sql(`select holder from conversation_holds where ticket_id = ?`, [ticket.id])).toEqual([{ holder: 'flow' }]);

    expect((await t.api.del(`/flowbuilder/${flowId}`, a.admin.token)).status).toBe(200);
    expect((await t.api.get(`/flowcampaign/${campaignId}`, a.admin.token)).body.error).toBe('ERR_NO_FLOW_CAMPAIGN_FOUND');
    expect((await t.api.get(`/whatsapp/${waA}`, a.admin.token)).body).toMatchObject({ flowIdWelcome: null, flowIdNotPhrase: null });
    expect(await sql(`select holder from conversation_holds where ticket_id = ?`, [ticket.id])).toEqual([]);
    // The ticket's log keeps the run, without its flow.
    const log = await t.api.get(`/flowbuilder/log/${ticket.id}`, a.admin.token);
    expect(log.body.runs).toMatchObject([{ flowId: null, status: 'expired', trigger: 'phrase' }]);
  });
});

describe('the canvas is checked when saved', () => {
  let flowId: number;
  beforeAll(async () => {
    flowId = (await t.api.post('/flowbuilder', { name: 'Validação' }, a.admin.token)).body.id;
  });
  const save = (graph: { nodes: unknown[]; connections: unknown[] }) => t.api.post('/flowbuilder/flow', { idFlow: flowId, ...graph }, a.admin.token);
  const fields = async (graph: { nodes: unknown[]; connections: unknown[] }) => {
    const res = await save(graph);
    expect(res.status).toBe(400);
    return (res.body.fields as { path: string }[]).map((f) => f.path);
  };

  it('intervals: more than 0 and at most 120 seconds, in nodes and content cards', async () => {
    for (const sec of [0, 121]) expect(await fields({ nodes: [start(), node('i', 'interval', { sec })], connections: [] })).toEqual(['nodes.1.data.sec']);
    const card = (value: number) => node('c', 'singleBlock', { seq: ['interval1'], elements: [{ type: 'interval', number: 'interval1', value }] });
    expect(await fields({ nodes: [start(), card(0)], connections: [] })).toEqual(['nodes.1.data.elements.0.value']);
    expect(await fields({ nodes: [start(), card(121)], connections: [] })).toEqual(['nodes.1.data.elements.0.value']);
    expect((await save({ nodes: [start(), card(120)], connections: [] })).status).toBe(200);
  });

  it('empty text cards and questions without a key are refused', async () => {
    const empty = node('c', 'singleBlock', { seq: ['message1'], elements: [{ type: 'message', number: 'message1', value: '  ' }] });
    expect(await fields({ nodes: [start(), empty], connections: [] })).toEqual(['nodes.1.data.elements.0.value']);
    expect(await fields({ nodes: [start(), question('q', 'Nome?', '')], connections: [] })).toEqual(['nodes.1.data.typebotIntegration.answerKey']);
    expect(await fields({ nodes: [start(), question('q', 'Nome?', 'com espaço')], connections: [] })).toEqual(['nodes.1.data.typebotIntegration.answerKey']);
  });

  it('one start node with id 1; menu options numbered 1, 2, 3', async () => {
    expect(await fields({ nodes: [message('m', 'sem início')], connections: [] })).toEqual(['nodes']);
    expect(await fields({ nodes: [start(), node('2', 'start', {})], connections: [] })).toEqual(['nodes.1.id', 'nodes']);
    const gap = node('m', 'menu', { message: 'Menu', arrayOption: [{ number: 1, value: 'a' }, { number: 3, value: 'b' }] });
    expect(await fields({ nodes: [start(), gap], connections: [] })).toEqual(['nodes.1.data.arrayOption']);
  });

  it('edges: between known nodes, from outputs the node has, one per output, never into the start', async () => {
    const nodes = [start(), menu('m', 'Menu', ['a', 'b']), message('x', 'x'), message('y', 'y')];
    expect(await fields({ nodes, connections: [edge('1', 'nowhere')] })).toEqual(['connections.0.target']);
    expect(await fields({ nodes, connections: [edge('m', 'x', 'a3')] })).toEqual(['connections.0.sourceHandle']);
    expect(await fields({ nodes, connections: [edge('x', 'y', 'b')] })).toEqual(['connections.0.sourceHandle']);
    expect(await fields({ nodes, connections: [edge('m', 'x', 'a1'), edge('m', 'y', 'a1')] })).toEqual(['connections.1.sourceHandle']);
    expect(await fields({ nodes, connections: [edge('x', '1')] })).toEqual(['connections.0.target']);
    expect((await save({ nodes, connections: [edge('1', 'm'), edge('m', 'x', 'a1'), edge('m', 'y', 'invalid'), edge('m', 'x', 'timeout')] })).status).toBe(200);
  });

  it('a ticket node needs a queue of the company; media must be flow uploads of the company', async () => {
    const queueB = (await t.api.post('/queue', { name: 'Fila B', color: '#abcdef' }, b.admin.token)).body.id;
    expect(await fields({ nodes: [start(), node('t', 'ticket', { queue: { id: queueB } })], connections: [] })).toEqual(['nodes.1.data.queue.id']);
    expect(await fields({ nodes: [start(), node('t', 'ticket', {})], connections: [] })).toEqual(['nodes.1.data.queue']);
    expect(await fields({ nodes: [start(), node('i', 'img', { url: '../../etc/passwd' })], connections: [] })).toEqual(['nodes.1.data.url']);
    const nameB = (await upload('img', b.admin.token, [{ data: PNG, name: 'b.png', type: 'image/png' }])).body;
    expect(await fields({ nodes: [start(), node('i', 'img', { url: nameB })], connections: [] })).toEqual(['nodes.1.data.url']);
    const nameA = (await upload('img', a.admin.token, [{ data: PNG, name: 'a.png', type: 'image/png' }])).body;
    // Of the right kind too: an image is not a video.
    expect(await fields({ nodes: [start(), node('v', 'video', { url: nameA })], connections: [] })).toEqual(['nodes.1.data.url']);
    const ok = await save({ nodes: [start(), node('i', 'img', { url: nameA })], connections: [edge('1', 'i')] });
    expect(ok.status).toBe(200);
    expect(ok.body.files[nameA]).toMatch(new RegExp(`^/media/${a.companyId}/${nameA}\\?expires=`));
  });
});

describe('uploads', () => {
  it('/img: png or jpg up to 2 MB; the bytes must be an image', async () => {
    const ok = await upload('img', a.admin.token, [{ data: PNG, name: 'foto.png', type: 'image/png' }]);
    expect(ok.status).toBe(201);
    expect(typeof ok.body).toBe('string');
    expect(existsSync(path.join(t.app.config.dataDir, 'media', String(a.companyId), ok.body))).toBe(true);
    const big = Buffer.concat([PNG, Buffer.alloc(FLOW_MEDIA_RULES.img.maxBytes)]);
    expect((await upload('img', a.admin.token, [{ data: big, name: 'big.png', type: 'image/png' }])).status).toBe(413);
    expect((await upload('img', a.admin.token, [{ data: PNG, name: 'x.gif', type: 'image/gif' }])).status).toBe(415);
    expect((await upload('img', a.admin.token, [{ data: Buffer.from('MZ not an image'), name: 'x.png', type: 'image/png' }])).status).toBe(415);
    expect((await upload('img', a.admin.token, [{ data: MP4, name: 'v.mp4', type: 'video/mp4' }])).status).toBe(415);
  });

  it('/audio: ogg, mp3 or opus up to 5 MB, also kept as a voice note', async () => {
    const ogg = await toVoiceNote(await recordedWebm(0.5));
    const res = await upload('audio', a.admin.token, [{ data: ogg, name: 'fala.ogg', type: 'audio/ogg' }]);
    expect(res.status).toBe(201);
    const [row] = await sql(`select kind, voice_file_name from flow_media where file_name = ?`, [res.body]);
    expect(row).toMatchObject({ kind: 'audio', voice_file_name: expect.stringMatching(/\.ogg$/) });
    const big = Buffer.concat([ogg, Buffer.alloc(FLOW_MEDIA_RULES.audio.maxBytes)]);
    expect((await upload('audio', a.admin.token, [{ data: big, name: 'big.ogg', type: 'audio/ogg' }])).status).toBe(413);
    expect((await upload('audio', a.admin.token, [{ data: Buffer.from('OggS but nothing else'), name: 'bad.ogg', type: 'audio/ogg' }])).status).toBe(415);
  });

  it('/content: several files, each within its kind\'s limit; video mp4 up to 20 MB', async () => {
    const res = await upload('content', a.admin.token, [
      { data: PNG, name: 'a.png', type: 'image/png' },
      { data: MP4, name: 'b.mp4', type: 'video/mp4' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(2);
    // An image above 2 MB is refused even though the endpoint takes 20 MB videos.
    const bigImage = Buffer.concat([PNG, Buffer.alloc(FLOW_MEDIA_RULES.img.maxBytes)]);
    expect((await upload('content', a.admin.token, [{ data: bigImage, name: 'big.png', type: 'image/png' }])).status).toBe(413);
    expect((await upload('content', a.admin.token, [{ data: MP4, name: 'v.mov', type: 'video/quicktime' }])).status).toBe(415);
  });
});

describe('OpenAI node keys', () => {
  const aiNode = (keys: Record<string, string>) =>
    node('ai', 'openai', { typebotIntegration: { name: 'Assistente', prompt: 'Você é um assistente.', voice: 'texto', ...keys } });
  const settingsOf = async (flowId: number) => (await t.api.get(`/flowbuilder/flow/${flowId}`, a.admin.token)).body.flow.flow.nodes[1].data.typebotIntegration;

  it('are sealed at rest, never returned, and kept by a save that does not retype them', async () => {
    const { body: flow } = await t.api.post('/flowbuilder', { name: 'IA' }, a.admin.token);
    const save = (keys: Record<string, string>) =>
      t.api.post('/flowbuilder/flow', { idFlow: flow.id, nodes: [start(), aiNode(keys)], connections: [edge('1', 'ai')] }, a.admin.token);
    expect((await save({ apiKey: 'sk-very-secret', voiceKey: 'speech-secret' })).status).toBe(200);
    const [row] = await sql(`select graph::text as graph from flow_versions where flow_id = ? and version = 1`, [flow.id]);
    expect(row.graph).not.toContain('sk-very-secret');
    expect(row.graph).not.toContain('speech-secret');
    expect(row.graph).toMatch(/"apiKeySealed":\s*"v1\./);
    const loaded = await t.api.get(`/flowbuilder/flow/${flow.id}`, a.admin.token);
    expect(JSON.stringify(loaded.body)).not.toContain('secret');
    expect(JSON.stringify(loaded.body)).not.toContain('Sealed');
    expect(await settingsOf(flow.id)).toMatchObject({ apiKey: '', hasApiKey: true });
    // The old Azure speech key is no setting any more: one sent is neither kept nor answered.
    expect(await settingsOf(flow.id)).not.toHaveProperty('voiceKey');
    expect(await settingsOf(flow.id)).not.toHaveProperty('hasVoiceKey');
    // The editor sends the node back without its keys: they are kept, sealed again as they were.
    expect((await save({})).status).toBe(200);
    const rows = await sql(`select graph -> 'nodes' -> 1 -> 'data' -> 'typebotIntegration' ->> 'apiKeySealed' as sealed from flow_versions where flow_id = ? order by version`, [flow.id]);
    expect(rows.at(-1).sealed).toBeTruthy();
    expect(await settingsOf(flow.id)).toMatchObject({ hasApiKey: true });
    // A flow duplicated in the company keeps them too.
    const copy = await t.api.post('/flowbuilder/duplicate', { flowId: flow.id }, a.admin.token);
    expect(await settingsOf(copy.body.id)).toMatchObject({ hasApiKey: true });
  });

  it('a graph saved with the old Azure speech key and region loads without them, and the next save drops them', async () => {
    const { body: flow } = await t.api.post('/flowbuilder', { name: 'IA antiga' }, a.admin.token);
    const save = (keys: Record<string, string>) =>
      t.api.post('/flowbuilder/flow', { idFlow: flow.id, nodes: [start(), aiNode(keys)], connections: [edge('1', 'ai')] }, a.admin.token);
    expect((await save({ apiKey: 'sk-old-secret' })).status).toBe(200);
    // As an older server stored it: the speech key sealed beside the API key, and its region.
    await sql(
      `update flow_versions set graph = jsonb_set(graph::jsonb, '{nodes,1,data,typebotIntegration}',
         (graph::jsonb #> '{nodes,1,data,typebotIntegration}') || '{"voiceKey": "", "voiceKeySealed": "v1.legacy-speech", "voiceRegion": "brazilsouth"}')
       where flow_id = ?`,
      [flow.id],
    );
    const loaded = await t.api.get(`/flowbuilder/flow/${flow.id}`, a.admin.token);
    expect(loaded.status).toBe(200);
    expect(JSON.stringify(loaded.body)).not.toMatch(/voiceKey|VoiceKey|voiceRegion|brazilsouth|Sealed/);
    expect(await settingsOf(flow.id)).toMatchObject({ name: 'Assistente', hasApiKey: true });
    expect((await save({})).status).toBe(200);
    const [row] = await sql(`select graph::text as graph from flow_versions where flow_id = ? order by version desc limit 1`, [flow.id]);
    expect(row.graph).not.toMatch(/voiceKey|voiceRegion|legacy-speech/);
    expect(row.graph).toMatch(/"apiKeySealed":\s*"v1\./);
  });

  it('a new OpenAI node needs its API key', async () => {
    const { body: flow } = await t.api.post('/flowbuilder', { name: 'IA sem chave' }, a.admin.token);
    const res = await t.api.post('/flowbuilder/flow', { idFlow: flow.id, nodes: [start(), aiNode({})], connections: [edge('1', 'ai')] }, a.admin.token);
    expectInvalid(res, 'nodes.1.data.typebotIntegration.apiKey');
  });
});

describe('Typebot nodes', () => {
  it("name one of the company's Typebot integrations", async () => {
    const mine = await t.api.post('/queueIntegration', { type: 'typebot', name: 'Typebot A', urlN8N: 'http://typebot.test', typebotSlug: 'a' }, a.admin.token);
    const hook = await t.api.post('/queueIntegration', { type: 'n8n', name: 'n8n A', urlN8N: 'http://n8n.test' }, a.admin.token);
    const theirs = await t.api.post('/queueIntegration', { type: 'typebot', name: 'Typebot B', urlN8N: 'http://typebot.test', typebotSlug: 'b' }, b.admin.token);
    expect([mine.status, hook.status, theirs.status]).toEqual([201, 201, 201]);
    const { body: flow } = await t.api.post('/flowbuilder', { name: 'Typebot' }, a.admin.token);
    const save = (id: number) =>
      t.api.post(
        '/flowbuilder/flow',
        { idFlow: flow.id, nodes: [start(), node('tb', 'typebot', { typebotIntegration: { id, name: 'x' } })], connections: [edge('1', 'tb')] },
        a.admin.token,
      );
    expectInvalid(await save(theirs.body.id), 'nodes.1.data.typebotIntegration.id');
    expectInvalid(await save(hook.body.id), 'nodes.1.data.typebotIntegration.id');
    expect((await save(mine.body.id)).status).toBe(200);
  });
});

describe('flow campaigns', () => {
  it('create, read, list (as `flow`), update (the connection too), delete', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, simpleGraph);
    const created = await t.api.post('/flowcampaign', { name: 'Promo', flowId, whatsappId: waA, phrase: 'Promo 10' }, a.admin.token);
    expect(created).toMatchObject({ status: 201, body: { name: 'Promo', phrase: 'Promo 10', status: true, matchType: 'exact', flow: { id: flowId }, whatsapp: { id: waA } } });
    const got = await t.api.get(`/flowcampaign/${created.body.id}`, a.admin.token);
    expect(got.body).toMatchObject({ name: 'Promo', phrase: 'Promo 10', status: true, flowId, whatsappId: waA });
    const list = await t.api.get('/flowcampaign', a.admin.token);
    expect(list.body.flow.map((c: { id: number }) => c.id)).toContain(created.body.id);
    const waA2 = (await connectSandbox(t.api, a.admin.token)).id;
    const updated = await t.api.put('/flowcampaign', { id: created.body.id, name: 'Promo 2', whatsappId: waA2, status: false, matchType: 'contains' }, a.admin.token);
    expect(updated.body).toMatchObject({ name: 'Promo 2', whatsappId: waA2, status: false, matchType: 'contains', phrase: 'Promo 10' });
    expect((await t.api.del(`/flowcampaign/${created.body.id}`, a.admin.token)).status).toBe(200);
    expect((await t.api.get(`/flowcampaign/${created.body.id}`, a.admin.token)).status).toBe(404);
  });

  it('name, flow and phrase are required; the flow and the connection must be the company\'s', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, simpleGraph);
    const flowB = await savedFlow(t.api, b.admin.token, simpleGraph);
    expect((await t.api.post('/flowcampaign', { flowId, whatsappId: waA, phrase: 'x' }, a.admin.token)).body.error).toBe('ERR_VALIDATION');
    expect((await t.api.post('/flowcampaign', { name: 'n', whatsappId: waA, phrase: 'x' }, a.admin.token)).body.error).toBe('ERR_VALIDATION');
    expect((await t.api.post('/flowcampaign', { name: 'n', flowId, whatsappId: waA, phrase: '   ' }, a.admin.token)).body.error).toBe('ERR_VALIDATION');
    expect((await t.api.post('/flowcampaign', { name: 'n', flowId: flowB, whatsappId: waA, phrase: 'x' }, a.admin.token)).body.error).toBe('ERR_NO_FLOW_FOUND');
    expect((await t.api.post('/flowcampaign', { name: 'n', flowId, whatsappId: waB, phrase: 'x' }, a.admin.token)).body.error).toBe('ERR_NO_WAPP_FOUND');
  });
});

describe('permissions', () => {
  it('agents read flows and campaigns; changing them, uploads and the test panel are for admins', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, simpleGraph);
    const campaignId = await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: waA, phrase: 'permissão' });
    const agent = a.agent.token;
    expect((await t.api.get('/flowbuilder', agent)).status).toBe(200);
    expect((await t.api.get(`/flowbuilder/flow/${flowId}`, agent)).status).toBe(200);
    expect((await t.api.get('/flowcampaign', agent)).status).toBe(200);
    const refused = [
      await t.api.post('/flowbuilder', { name: 'Agente' }, agent),
      await t.api.put('/flowbuilder', { flowId, name: 'Agente' }, agent),
      await t.api.post('/flowbuilder/duplicate', { flowId }, agent),
      await t.api.post('/flowbuilder/flow', { idFlow: flowId, ...simpleGraph }, agent),
      await t.api.post('/flowbuilder/test', { graph: simpleGraph, event: 'start' }, agent),
      await t.api.del(`/flowbuilder/${flowId}`, agent),
      await upload('img', agent, [{ data: PNG, name: 'a.png', type: 'image/png' }]),
      await t.api.post('/flowcampaign', { name: 'n', flowId, whatsappId: waA, phrase: 'agente' }, agent),
      await t.api.put('/flowcampaign', { id: campaignId, name: 'n' }, agent),
      await t.api.del(`/flowcampaign/${campaignId}`, agent),
      await t.api.get(`/flowbuilder/log/1`, agent),
    ];
    expect(refused.map((r) => r.body.error)).toEqual(Array(refused.length).fill('ERR_NO_PERMISSION'));
    expect((await t.api.get(`/flowbuilder/flow/${flowId}`, a.admin.token)).body.flow.name).not.toBe('Agente');
  });

  it('every route needs a login', async () => {
    for (const [method, url] of [
      ['GET', '/flowbuilder'],
      ['POST', '/flowbuilder'],
      ['PUT', '/flowbuilder'],
      ['GET', '/flowbuilder/flow/1'],
      ['POST', '/flowbuilder/flow'],
      ['POST', '/flowbuilder/img'],
      ['POST', '/flowbuilder/test'],
      ['GET', '/flowcampaign'],
      ['DELETE', '/flowcampaign/1'],
    ]) {
      expect((await t.api.request(method, url)).status, `${method} ${url}`).toBe(401);
    }
  });
});

describe('tenant isolation', () => {
  it("another company's flows, campaigns, tickets and files are not found", async () => {
    const flowA = await savedFlow(t.api, a.admin.token, simpleGraph);
    const campaignA = await phraseCampaign(t.api, a.admin.token, { flowId: flowA, whatsappId: waA, phrase: 'isolado' });
    const c = customer(t.api, a.admin.token, waA, '5511955550002');
    await c.says('isolado');
    await c.replies(1);
    const ticketA = await ticketOf(t.api, a.admin.token, c.number);
    const B = b.admin.token;
    const answers = [
      await t.api.get(`/flowbuilder/flow/${flowA}`, B),
      await t.api.put('/flowbuilder', { flowId: flowA, name: 'Roubado' }, B),
      await t.api.post('/flowbuilder/duplicate', { flowId: flowA }, B),
      await t.api.post('/flowbuilder/flow', { idFlow: flowA, ...simpleGraph }, B),
      await t.api.del(`/flowbuilder/${flowA}`, B),
      await t.api.get(`/flowcampaign/${campaignA}`, B),
      await t.api.put('/flowcampaign', { id: campaignA, name: 'Roubado' }, B),
      await t.api.del(`/flowcampaign/${campaignA}`, B),
      await t.api.get(`/flowbuilder/log/${ticketA.id}`, B),
      await t.api.put(`/whatsapp/${waB}`, { flowIdWelcome: flowA }, B),
    ];
    expect(answers.map((r) => r.status)).toEqual(Array(answers.length).fill(404));
    expect((await t.api.get('/flowbuilder?searchParam=', B)).body.flows.map((f: { id: number }) => f.id)).not.toContain(flowA);
    expect((await t.api.get('/flowcampaign', B)).body.flow.map((f: { id: number }) => f.id)).not.toContain(campaignA);
    expect((await t.api.get(`/flowbuilder/flow/${flowA}`, a.admin.token)).body.flow.name).not.toBe('Roubado');
  });
});

describe('the ticket flow log', () => {
  it('shows admins each run with its steps in order', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), menu('m', 'Escolha', ['Um']), message('u', 'Um!')],
      connections: [edge('1', 'm'), edge('m', 'u', 'a1')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: waA, phrase: 'registro' });
    const c = customer(t.api, a.admin.token, waA, '5511955550003');
    await c.says('registro');
    await c.replies(1);
    await c.says('1');
    await c.replies(1);
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    const log = await t.api.get(`/flowbuilder/log/${ticket.id}`, a.admin.token);
    expect(log.body.runs).toHaveLength(1);
    expect(log.body.runs[0]).toMatchObject({ flowId, trigger: 'phrase', status: 'done', version: 1 });
    expect(log.body.runs[0].steps.map((s: { nodeId: string; outcome: string }) => `${s.nodeId}:${s.outcome}`)).toEqual([
      '1:a',
      'm:asked',
      'm:a1',
      'u:a',
      'u:done',
    ]);
  });
});

describe('the test panel', () => {
  it('runs the canvas being edited without sending anything, and keeps the session in the panel', async () => {
    const graph = {
      nodes: [start(), node('i', 'interval', { sec: 3 }), menu('m', 'Oi {{firstName}}, escolha', ['Sim', 'Não'], { timeoutMinutes: 5 }), question('q', 'Nome?', 'nome'), message('bye', 'Tchau {{nome}}'), message('late', 'Sumiu?')],
      connections: [edge('1', 'i'), edge('i', 'm'), edge('m', 'q', 'a1'), edge('q', 'bye'), edge('m', 'late', 'timeout')],
    };
    const outboxBefore = await sql(`select count(*)::int as n from outbound_messages where company_id = ?`, [a.companyId]);
    const first = await t.api.post('/flowbuilder/test', { graph, event: 'start' }, a.admin.token);
    expect(first.status).toBe(200);
    expect(first.body.replies).toEqual([
      { kind: 'pause', seconds: 3, nodeId: 'i' },
      { kind: 'text', body: 'Oi Test, escolha\n\n[1] Sim\n[2] Não', nodeId: 'm' },
    ]);
    expect(first.body).toMatchObject({ status: 'waiting', waiting: { nodeId: 'm', timeoutMinutes: 5 } });
    expect(first.body.path.map((p: { nodeId: string }) => p.nodeId)).toEqual(['1', 'i', 'i', 'm']);
    const second = await t.api.post('/flowbuilder/test', { graph, event: 'message', body: '1', session: first.body.session }, a.admin.token);
    expect(second.body.replies).toEqual([{ kind: 'text', body: 'Nome?', nodeId: 'q' }]);
    const third = await t.api.post('/flowbuilder/test', { graph, event: 'message', body: 'Ana', session: second.body.session }, a.admin.token);
    expect(third.body).toMatchObject({ status: 'done', replies: [{ kind: 'text', body: 'Tchau Ana' }], variables: { nome: 'Ana' }, session: null });
    // "No reply": the panel fires the deadline.
    const timedOut = await t.api.post('/flowbuilder/test', { graph, event: 'timeout', session: first.body.session }, a.admin.token);
    expect(timedOut.body.replies).toEqual([{ kind: 'text', body: 'Sumiu?', nodeId: 'late' }]);
    expect(await sql(`select count(*)::int as n from outbound_messages where company_id = ?`, [a.companyId])).toEqual(outboxBefore);
    // A session that is not one is refused.
    expect((await t.api.post('/flowbuilder/test', { graph, event: 'message', body: '1', session: { node: 42 } }, a.admin.token)).body.error).toBe('ERR_VALIDATION');
  });
});

describe('what a flow names cannot be deleted from under it', () => {
  it('an integration a Typebot node of the last saved canvas names: refused, naming the flows', async () => {
    const integration = (await t.api.post('/queueIntegration', { type: 'typebot', name: 'Typebot em uso', urlN8N: 'http://typebot.test', typebotSlug: 'u' }, a.admin.token)).body;
    const { body: flow } = await t.api.post('/flowbuilder', { name: 'Usa o Typebot' }, a.admin.token);
    const withNode = { nodes: [start(), node('tb', 'typebot', { typebotIntegration: { id: integration.id, name: 'x' } })], connections: [edge('1', 'tb')] };
    expect((await t.api.post('/flowbuilder/flow', { idFlow: flow.id, ...withNode }, a.admin.token)).status).toBe(200);

    const refused = await t.api.del(`/queueIntegration/${integration.id}`, a.admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'ERR_INTEGRATION_USED_BY_FLOWS', flows: [{ id: flow.id, name: 'Usa o Typebot' }] });

    // Saved without the node: an older version no new run starts on does not hold it.
    expect((await t.api.post('/flowbuilder/flow', { idFlow: flow.id, ...simpleGraph }, a.admin.token)).status).toBe(200);
    expect((await t.api.del(`/queueIntegration/${integration.id}`, a.admin.token)).status).toBe(200);
  });

  it('a queue a ticket node names: refused until the flow is deleted', async () => {
    const queue = (await t.api.post('/queue', { name: 'Fila do fluxo', color: '#123456' }, a.admin.token)).body;
    const { body: flow } = await t.api.post('/flowbuilder', { name: 'Manda para a fila' }, a.admin.token);
    const graph = { nodes: [start(), node('t', 'ticket', { queue: { id: queue.id, name: queue.name } })], connections: [edge('1', 't')] };
    expect((await t.api.post('/flowbuilder/flow', { idFlow: flow.id, ...graph }, a.admin.token)).status).toBe(200);

    const refused = await t.api.del(`/queue/${queue.id}`, a.admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'ERR_QUEUE_USED_BY_FLOWS', flows: [{ id: flow.id, name: 'Manda para a fila' }] });
    expect((await t.api.get(`/queue/${queue.id}`, a.admin.token)).status).toBe(200);

    expect((await t.api.del(`/flowbuilder/${flow.id}`, a.admin.token)).status).toBe(200);
    expect((await t.api.del(`/queue/${queue.id}`, a.admin.token)).status).toBe(200);
  });
});
