import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FlowDocumentView, FlowGraphInput, FlowTestResult, FlowView } from '@atrium/shared';
import { cleanup } from '@testing-library/react';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { usePreferences } from '../../../stores/preferences-store';
import { loadDraft } from '../lib/graph';

const flow = (id: number, name: string, extra: Partial<FlowView> = {}): FlowView => ({
  id,
  name,
  active: true,
  companyId: 1,
  version: 0,
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
  ...extra,
});

/** /flowbuilder calls in memory, as the server answers them. */
const flowsServer = (initial: FlowView[], graphs: Record<number, FlowGraphInput> = {}, testReply?: (event: string, body: string) => FlowTestResult) => {
  const flows = [...initial];
  const saved: Record<number, FlowGraphInput> = { ...graphs };
  const doc = (id: number): FlowDocumentView => {
    const f = flows.find((x) => x.id === id)!;
    return { flow: { ...f, flow: (saved[id] as FlowDocumentView['flow']['flow']) ?? null }, files: {} };
  };
  const calls = fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    if (call.method === 'GET' && call.url === '/flowbuilder') return { data: { flows, count: flows.length, hasMore: false } };
    if (call.method === 'POST' && call.url === '/flowbuilder') {
      const created = flow(100 + flows.length, (call.data as { name: string }).name);
      flows.push(created);
      return { status: 201, data: created };
    }
    if (call.method === 'PUT' && call.url === '/flowbuilder') {
      const body = call.data as { flowId: number; name?: string; active?: boolean };
      const f = flows.find((x) => x.id === body.flowId)!;
      Object.assign(f, { ...(body.name ? { name: body.name } : {}), ...(body.active !== undefined ? { active: body.active } : {}) });
      return { data: f };
    }
    if (call.method === 'POST' && call.url === '/flowbuilder/duplicate') {
      const source = flows.find((x) => x.id === (call.data as { flowId: number }).flowId)!;
      const copy = flow(200 + flows.length, `${source.name} - copy`);
      flows.push(copy);
      return { status: 201, data: copy };
    }
    const docId = Number(/^\/flowbuilder\/flow\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'GET' && docId) return { data: doc(docId) };
    if (call.method === 'POST' && call.url === '/flowbuilder/flow') {
      const { idFlow, ...graph } = call.data as FlowGraphInput & { idFlow: number };
      saved[idFlow] = graph;
      flows.find((x) => x.id === idFlow)!.version += 1;
      return { data: doc(idFlow) };
    }
    if (call.method === 'POST' && call.url === '/flowbuilder/test') {
      const body = call.data as { event: string; body: string };
      if (testReply) return { data: testReply(body.event, body.body) };
      const result: FlowTestResult =
        body.event === 'start'
          ? { replies: [{ kind: 'text', body: 'Escolha:\n\n[1] Vendas', nodeId: 'm' }], path: [{ nodeId: '1', outcome: 'a' }, { nodeId: 'm', outcome: 'asked' }], status: 'waiting', waiting: { nodeId: 'm', timeoutMinutes: null }, session: { s: 1 }, variables: {} }
          : { replies: [{ kind: 'text', body: 'Vendas aqui.', nodeId: 'v' }], path: [{ nodeId: 'm', outcome: 'a1' }, { nodeId: 'v', outcome: 'a' }], status: 'done', waiting: null, session: null, variables: {} };
      return { data: result };
    }
    const delId = Number(/^\/flowbuilder\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'DELETE' && delId) {
      flows.splice(flows.findIndex((x) => x.id === delId), 1);
      return { data: { message: 'Flow deleted' } };
    }
    if (call.method === 'POST' && call.url === '/flowbuilder/content') {
      const files = (call.data as FormData).getAll('medias') as File[];
      return { status: 201, data: files.map((f, i) => `stored${i}abcdefghij.${f.name.split('.').pop()}`) };
    }
    if (call.method === 'GET' && call.url === '/queue') return { data: [{ id: 4, name: 'Vendas' }] };
    if (call.method === 'GET' && call.url === '/queueIntegration/') {
      const queueIntegrations = [
        { id: 7, type: 'typebot', name: 'Typebot Vendas' },
        { id: 8, type: 'n8n', name: 'n8n Pedidos' },
        { id: 9, type: 'typebot', name: 'Typebot Suporte' },
      ];
      return { data: { queueIntegrations, count: 3, hasMore: false } };
    }
    return { data: [] };
  });
  return { flows, saved, calls };
};

const MENU_GRAPH: FlowGraphInput = {
  nodes: [
    { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } },
    { id: 'm', type: 'menu', position: { x: 300, y: 0 }, data: { message: 'Escolha:', arrayOption: [{ number: 1, value: 'Vendas' }, { number: 2, value: 'Suporte' }] } },
    { id: 'v', type: 'message', position: { x: 600, y: 0 }, data: { label: 'Vendas aqui.' } },
  ],
  connections: [
    { id: 'e1', source: '1', target: 'm' },
    { id: 'e2', source: 'm', target: 'v', sourceHandle: 'a1' },
  ],
};

beforeEach(() => {
  localStorage.clear();
  usePreferences.setState({ cshow: true });
});

describe('/flowbuilders', () => {
  it('lists flows with their status; a new flow opens its canvas', async () => {
    const { flows } = flowsServer([flow(1, 'Boas-vindas'), flow(2, 'Pós-venda', { active: false })]);
    signIn({ profile: 'admin' });
    renderApp('/flowbuilders');
    expect((await screen.findByTestId('flow-open-1')).textContent).toBe('Boas-vindas');
    expect((screen.getByTestId('flow-active-2') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByTestId('flows-add'));
    const dialog = await screen.findByTestId('flow-name-dialog');
    fireEvent.change(within(dialog).getByTestId('flow-name'), { target: { value: 'A' } });
    fireEvent.click(within(dialog).getByTestId('flow-name-dialog-save'));
    expect(await within(dialog).findByText('Too short!')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('flow-name'), { target: { value: 'Atendimento' } });
    fireEvent.click(within(dialog).getByTestId('flow-name-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/flowbuilder/${flows.at(-1)!.id}`));
    expect(flows.at(-1)!.name).toBe('Atendimento');
  });

  it('agents see the flows but no add, duplicate or delete', async () => {
    flowsServer([flow(1, 'Boas-vindas')]);
    signIn({ profile: 'user' });
    renderApp('/flowbuilders');
    await screen.findByTestId('flow-open-1');
    expect(screen.queryByTestId('flows-add')).toBeNull();
    expect(screen.queryByTestId('flow-duplicate-1')).toBeNull();
    expect(screen.queryByTestId('flow-delete-1')).toBeNull();
  });
});

describe('/flowbuilder/:id', () => {
  it('draws the saved canvas with one output per menu option and its invalid and no-reply outputs', async () => {
    flowsServer([flow(1, 'Menu', { version: 1 })], { 1: MENU_GRAPH });
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    const menu = await screen.findByTestId('flow-node-m');
    expect(menu.textContent).toContain('1. Vendas');
    expect(menu.textContent).toContain('2. Suporte');
    for (const handle of ['a1', 'a2', 'invalid', 'timeout']) expect(screen.getByTestId(`flow-handle-m-${handle}`)).toBeTruthy();
    // Option 2 and the invalid answers lead nowhere: warned about.
    expect(screen.getByTestId('flowbuilder-warnings').textContent).toBe('2');
  });

  it('adds a node through its dialog, keeps the edit as a draft until saved, and saves the whole canvas', async () => {
    const toasts = collectToasts();
    const { saved } = flowsServer([flow(1, 'Menu', { version: 1 })], { 1: MENU_GRAPH });
    signIn({ profile: 'admin' });
    const view = renderApp('/flowbuilder/1');
    await screen.findByTestId('flow-node-m');
    fireEvent.click(screen.getByTestId('flowbuilder-add'));
    fireEvent.click(await screen.findByTestId('flowbuilder-add-question'));
    const dialog = await screen.findByTestId('flow-node-dialog');
    expect(within(dialog).getByText('Add a question to the flow')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('flow-dialog-message'), { target: { value: 'Qual é o seu nome?' } });
    fireEvent.change(within(dialog).getByTestId('flow-dialog-answer-key'), { target: { value: 'nome completo' } });
    fireEvent.click(within(dialog).getByTestId('flow-node-dialog-save'));
    expect(await within(dialog).findByText('Letters, digits and _ only, starting with a letter')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('flow-dialog-answer-key'), { target: { value: 'nome' } });
    fireEvent.change(within(dialog).getByTestId('flow-dialog-retries'), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByTestId('flow-node-dialog-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-node-dialog')).toBeNull());
    expect(document.querySelector('[data-node-type="question"]')!.textContent).toContain('Qual é o seu nome?');
    expect(screen.getByTestId('flowbuilder-hint').textContent).toMatch(/Unsaved/);
    await waitFor(() => expect(loadDraft(1)?.graph.nodes).toHaveLength(4));

    // Leaving and coming back: the draft is restored, the saved flow is untouched.
    view.unmount();
    cleanup();
    renderApp('/flowbuilder/1');
    expect(await screen.findByTestId('flowbuilder-draft')).toBeTruthy();
    expect(document.querySelector('[data-node-type="question"]')).toBeTruthy();
    expect(saved[1].nodes).toHaveLength(3);

    fireEvent.click(screen.getByTestId('flowbuilder-save'));
    await waitFor(() => expect(saved[1].nodes).toHaveLength(4));
    const question = saved[1].nodes.find((n) => n.type === 'question')!;
    expect(question.id).toMatch(/^[A-Za-z0-9]{30}$/);
    // As the server's schema reads it: the retries a number, no empty "no reply" time.
    expect(question.data).toEqual({ typebotIntegration: { message: 'Qual é o seu nome?', answerKey: 'nome' }, retries: 2 });
    expect(saved[1].connections).toHaveLength(2);
    await waitFor(() => expect(toasts.map((t) => t.message)).toContain('Flow saved successfully'));
    expect(loadDraft(1)).toBeNull();
    expect(screen.queryByTestId('flowbuilder-draft')).toBeNull();
    expect(screen.getByTestId('flowbuilder-hint').textContent).toBe("Don't forget to save your flow!");
  });

  it('duplicates and deletes nodes; the start has neither', async () => {
    flowsServer([flow(1, 'Menu', { version: 1 })], { 1: MENU_GRAPH });
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    await screen.findByTestId('flow-node-v');
    expect(screen.queryByTestId('flow-node-delete-1')).toBeNull();
    fireEvent.click(screen.getByTestId('flow-node-duplicate-v'));
    await waitFor(() => expect(document.querySelectorAll('[data-node-type="message"]')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('flow-node-delete-m'));
    await waitFor(() => expect(screen.queryByTestId('flow-node-m')).toBeNull());
  });

  it('the test panel runs the canvas on the server and lights the path taken', async () => {
    const { calls } = flowsServer([flow(1, 'Menu', { version: 1 })], { 1: MENU_GRAPH });
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    await screen.findByTestId('flow-node-m');
    fireEvent.click(screen.getByTestId('flowbuilder-test'));
    fireEvent.click(await screen.findByTestId('flow-test-start'));
    expect((await screen.findAllByTestId('flow-test-line-flow'))[0].textContent).toContain('[1] Vendas');
    await waitFor(() => expect(screen.getByTestId('flow-node-m').dataset.passed).toBe('true'));
    fireEvent.change(screen.getByTestId('flow-test-input'), { target: { value: '1' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('flow-test-send'));
    });
    await waitFor(() => expect(screen.getAllByTestId('flow-test-line-flow').map((l) => l.textContent)).toContain('Vendas aqui.'));
    expect(screen.getByTestId('flow-node-v').dataset.passed).toBe('true');
    const turns = calls.filter((c) => c.url === '/flowbuilder/test').map((c) => c.data as { event: string; session?: unknown; body: string });
    expect(turns).toMatchObject([{ event: 'start' }, { event: 'message', body: '1', session: { s: 1 } }]);
  });

  it('the test panel lets the tester talk to a Typebot node that has the conversation (no "no reply" there)', async () => {
    const { calls } = flowsServer([flow(1, 'Menu', { version: 1 })], { 1: MENU_GRAPH }, (event, body) =>
      event === 'start'
        ? {
            replies: [{ kind: 'handoff', to: 'typebot', nodeId: 'm' }, { kind: 'text', body: 'Olá do Typebot', nodeId: 'm' }],
            path: [{ nodeId: '1', outcome: 'a' }, { nodeId: 'm', outcome: 'handoff' }],
            status: 'waiting',
            waiting: { nodeId: 'm', timeoutMinutes: null, to: 'typebot' },
            session: { s: 2 },
            variables: {},
          }
        : { replies: [{ kind: 'text', body: `Typebot ouviu: ${body}`, nodeId: 'm' }], path: [{ nodeId: 'm', outcome: 'forwarded' }], status: 'waiting', waiting: { nodeId: 'm', timeoutMinutes: null, to: 'typebot' }, session: { s: 3 }, variables: {} },
    );
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    await screen.findByTestId('flow-node-m');
    fireEvent.click(screen.getByTestId('flowbuilder-test'));
    fireEvent.click(await screen.findByTestId('flow-test-start'));
    await waitFor(() => expect(screen.getAllByTestId('flow-test-line-flow').map((l) => l.textContent)).toContain('Olá do Typebot'));
    await waitFor(() => expect((screen.getByTestId('flow-test-input') as HTMLInputElement).disabled).toBe(false));
    expect((screen.getByTestId('flow-test-timeout') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('flow-test-input'), { target: { value: 'oi bot' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('flow-test-send'));
    });
    await waitFor(() => expect(screen.getAllByTestId('flow-test-line-flow').map((l) => l.textContent)).toContain('Typebot ouviu: oi bot'));
    expect(calls.filter((c) => c.url === '/flowbuilder/test').map((c) => c.data)).toMatchObject([{ event: 'start' }, { event: 'message', body: 'oi bot', session: { s: 2 } }]);
  });

  it('the test panel plays a spoken answer as audio, its words beside it', async () => {
    const voice = 'data:audio/ogg;base64,T2dnUw==';
    flowsServer([flow(1, 'Menu', { version: 1 })], { 1: MENU_GRAPH }, () => ({
      replies: [{ kind: 'media', mediaType: 'audio', url: voice, voiceNote: true, nodeId: 'm', text: 'Olá, sou a voz.' }],
      path: [{ nodeId: '1', outcome: 'a' }],
      status: 'waiting',
      waiting: { nodeId: 'm', timeoutMinutes: null, to: 'openai' },
      session: { s: 4 },
      variables: {},
    }));
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    await screen.findByTestId('flow-node-m');
    fireEvent.click(screen.getByTestId('flowbuilder-test'));
    fireEvent.click(await screen.findByTestId('flow-test-start'));
    const audio = (await screen.findByTestId('flow-test-audio')) as HTMLAudioElement;
    expect(audio.getAttribute('src')).toBe(voice);
    expect(audio.controls).toBe(true);
    expect(audio.closest('[data-testid="flow-test-line-flow"]')!.textContent).toContain('Olá, sou a voz.');
  });

  it('the content dialog checks its cards in the spec\'s words, refuses a wrong file, and uploads on save', async () => {
    const toasts = collectToasts();
    const { calls } = flowsServer([flow(1, 'Conteúdo', { version: 1 })], { 1: MENU_GRAPH });
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    await screen.findByTestId('flow-node-m');
    fireEvent.click(screen.getByTestId('flowbuilder-add'));
    fireEvent.click(await screen.findByTestId('flowbuilder-add-singleBlock'));
    const dialog = await screen.findByTestId('flow-content-dialog');
    const add = async (type: string) => {
      fireEvent.click(within(dialog).getByTestId('flow-content-add'));
      fireEvent.click(await screen.findByTestId(`flow-content-add-${type}`));
    };
    const problem = async () => (await within(dialog).findByTestId('flow-content-problem')).textContent;
    await add('message');
    fireEvent.click(within(dialog).getByTestId('flow-content-save'));
    expect(await problem()).toBe('Empty message fields!');
    fireEvent.change(within(dialog).getByLabelText('Text'), { target: { value: 'Veja nosso catálogo' } });
    await add('interval');
    fireEvent.change(within(dialog).getByLabelText('Interval'), { target: { value: '121' } });
    fireEvent.click(within(dialog).getByTestId('flow-content-save'));
    await waitFor(async () => expect(await problem()).toBe('An interval cannot be 0 or above 120!'));
    fireEvent.change(within(dialog).getByLabelText('Interval'), { target: { value: '3' } });
    await add('img');
    fireEvent.click(within(dialog).getByTestId('flow-content-save'));
    await waitFor(async () => expect(await problem()).toBe('Delete the empty cards (Image, Audio and Video)'));
    const input = within(dialog).getByLabelText('Image') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'doc.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(toasts.map((t) => t.message)).toContain('This file type is not accepted here.'));
    fireEvent.change(input, { target: { files: [new File(['png'], 'foto.png', { type: 'image/png' })] } });
    fireEvent.click(within(dialog).getByTestId('flow-content-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-content-dialog')).toBeNull());
    expect(calls.filter((c) => c.url === '/flowbuilder/content')).toHaveLength(1);
    const node = document.querySelector('[data-node-type="singleBlock"]')!;
    expect(node.textContent).toContain('3 cards');
  });

  it("the Typebot dialog picks one of the company's Typebot integrations", async () => {
    const { saved } = flowsServer([flow(1, 'Typebot', { version: 1 })], { 1: MENU_GRAPH });
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    await screen.findByTestId('flow-node-m');
    fireEvent.click(screen.getByTestId('flowbuilder-add'));
    fireEvent.click(await screen.findByTestId('flowbuilder-add-typebot'));
    const dialog = await screen.findByTestId('flow-node-dialog');
    fireEvent.click(within(dialog).getByTestId('flow-node-dialog-save'));
    expect(await within(dialog).findByText('Pick a Typebot integration')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('flow-dialog-integration'));
    // Only Typebot integrations are offered, by name.
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Typebot Vendas', 'Typebot Suporte']);
    fireEvent.click(options[1]);
    fireEvent.click(within(dialog).getByTestId('flow-node-dialog-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-node-dialog')).toBeNull());
    fireEvent.click(screen.getByTestId('flowbuilder-save'));
    await waitFor(() => expect(saved[1].nodes).toHaveLength(4));
    expect(saved[1].nodes.find((n) => n.type === 'typebot')!.data).toEqual({ typebotIntegration: { id: 9, name: 'Typebot Suporte' } });
  });

  it('the OpenAI dialog asks for a key unless the server keeps one, and never shows it', async () => {
    const graph: FlowGraphInput = {
      nodes: [
        ...MENU_GRAPH.nodes,
        {
          id: 'ai',
          type: 'openai',
          position: { x: 900, y: 0 },
          data: { typebotIntegration: { name: 'Vendedor', prompt: 'Você vende.', apiKey: '', hasApiKey: true } },
        },
      ],
      connections: MENU_GRAPH.connections,
    };
    const { saved } = flowsServer([flow(1, 'IA', { version: 1 })], { 1: graph });
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    // A new node: the key is required.
    await screen.findByTestId('flow-node-ai');
    fireEvent.click(screen.getByTestId('flowbuilder-add'));
    fireEvent.click(await screen.findByTestId('flowbuilder-add-openai'));
    let dialog = await screen.findByTestId('flow-node-dialog');
    fireEvent.change(within(dialog).getByTestId('flow-dialog-name'), { target: { value: 'Suporte' } });
    fireEvent.change(within(dialog).getByTestId('flow-dialog-prompt'), { target: { value: 'Você ajuda.' } });
    fireEvent.click(within(dialog).getByTestId('flow-node-dialog-save'));
    expect(await within(dialog).findByText('Type the API key')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('flow-node-dialog-cancel'));
    await waitFor(() => expect(screen.queryByTestId('flow-node-dialog')).toBeNull());

    // The saved node: its key is kept on the server, the field stays empty and optional.
    fireEvent.doubleClick(screen.getByTestId('flow-node-ai'));
    dialog = await screen.findByTestId('flow-node-dialog');
    expect((within(dialog).getByTestId('flow-dialog-api-key') as HTMLInputElement).value).toBe('');
    expect(within(dialog).getByText('A key is kept (not shown). Type a new one to replace it.')).toBeTruthy();
    // Voice goes through the OpenAI key's text-to-speech: no speech key or region is asked any more.
    expect(dialog.querySelectorAll('input[type="password"]')).toHaveLength(1);
    expect(within(dialog).queryByText(/voice key|voice region/i)).toBeNull();
    fireEvent.change(within(dialog).getByTestId('flow-dialog-prompt'), { target: { value: 'Você vende camisas.' } });
    fireEvent.click(within(dialog).getByTestId('flow-node-dialog-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-node-dialog')).toBeNull());
    fireEvent.click(screen.getByTestId('flowbuilder-save'));
    await waitFor(() => expect((saved[1].nodes.find((n) => n.id === 'ai')!.data as any).typebotIntegration.prompt).toBe('Você vende camisas.'));
    expect((saved[1].nodes.find((n) => n.id === 'ai')!.data as any).typebotIntegration).toMatchObject({ apiKey: '', hasApiKey: true });
    expect((saved[1].nodes.find((n) => n.id === 'ai')!.data as any).typebotIntegration).not.toHaveProperty('voiceRegion');
  });

  it('the old image, audio and video nodes have an edit dialog that uploads a new file', async () => {
    const toasts = collectToasts();
    const graph: FlowGraphInput = {
      nodes: [
        ...MENU_GRAPH.nodes,
        { id: 'au', type: 'audio', position: { x: 900, y: 0 }, data: { url: 'old0abcdefghij.mp3', record: false } },
        { id: 'vi', type: 'video', position: { x: 900, y: 200 }, data: { url: 'old1abcdefghij.mp4' } },
      ],
      connections: MENU_GRAPH.connections,
    };
    const { saved, calls } = flowsServer([flow(1, 'Mídia', { version: 1 })], { 1: graph });
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    fireEvent.doubleClick(await screen.findByTestId('flow-node-au'));
    let dialog = await screen.findByTestId('flow-media-dialog');
    expect(within(dialog).getByText('Edit audio')).toBeTruthy();
    expect(within(dialog).getByTestId('flow-media-current').textContent).toBe('Current file: old0abcdefghij.mp3');
    const input = within(dialog).getByTestId('flow-media-file') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'song.wav', { type: 'audio/wav' })] } });
    await waitFor(() => expect(toasts.map((t) => t.message)).toContain('This file type is not accepted here.'));
    fireEvent.change(input, { target: { files: [new File(['ogg'], 'voz.ogg', { type: 'audio/ogg' })] } });
    fireEvent.click(within(dialog).getByTestId('flow-media-record'));
    fireEvent.click(within(dialog).getByTestId('flow-media-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-media-dialog')).toBeNull());
    expect(calls.filter((c) => c.url === '/flowbuilder/content')).toHaveLength(1);

    // Saved without a new file, the video keeps its own.
    fireEvent.doubleClick(screen.getByTestId('flow-node-vi'));
    dialog = await screen.findByTestId('flow-media-dialog');
    expect(within(dialog).getByText('Edit video')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('flow-media-save'));
    await waitFor(() => expect(screen.queryByTestId('flow-media-dialog')).toBeNull());

    fireEvent.click(screen.getByTestId('flowbuilder-save'));
    await waitFor(() => expect(saved[1].nodes.find((n) => n.id === 'au')!.data).toEqual({ url: 'stored0abcdefghij.ogg', record: true }));
    expect(saved[1].nodes.find((n) => n.id === 'vi')!.data).toEqual({ url: 'old1abcdefghij.mp4' });
  });

  it('asks before the app leaves the editor with unsaved edits; Stay keeps them, Leave goes', async () => {
    flowsServer([flow(1, 'Menu', { version: 1 })], { 1: MENU_GRAPH });
    signIn({ profile: 'admin' });
    renderApp('/flowbuilder/1');
    await screen.findByTestId('flow-node-v');
    const location = () => screen.getByTestId('location').textContent;
    const dashboard = () => screen.getByTestId('side-menu').querySelector('a[href="/"]') as HTMLAnchorElement;
    await waitFor(() => expect(dashboard()).toBeTruthy());
    // Nothing to lose yet: the back button just goes.
    fireEvent.click(screen.getByTestId('flowbuilder-back'));
    await waitFor(() => expect(location()).toBe('/flowbuilders'));
    fireEvent.click(await screen.findByTestId('flow-open-1'));
    fireEvent.click(await screen.findByTestId('flow-node-duplicate-v'));
    await waitFor(() => expect(screen.getByTestId('flowbuilder-hint').textContent).toMatch(/Unsaved/));

    // A side-menu link: asked first, nothing happens until answered.
    fireEvent.click(dashboard());
    const ask = await screen.findByTestId('flowbuilder-leave-dialog');
    expect(ask.textContent).toContain('Leave without saving?');
    expect(location()).toBe('/flowbuilder/1');
    fireEvent.click(screen.getByTestId('flowbuilder-leave-stay'));
    await waitFor(() => expect(screen.queryByTestId('flowbuilder-leave-dialog')).toBeNull());
    expect(location()).toBe('/flowbuilder/1');
    expect(document.querySelectorAll('[data-node-type="message"]')).toHaveLength(2);

    // The editor's own back button asks too; Leave goes (the draft keeps the edits).
    fireEvent.click(screen.getByTestId('flowbuilder-back'));
    fireEvent.click(await screen.findByTestId('flowbuilder-leave-go'));
    await waitFor(() => expect(location()).toBe('/flowbuilders'));
    expect(loadDraft(1)?.graph.nodes).toHaveLength(4);
  });
});
