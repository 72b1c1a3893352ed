import { describe, expect, it } from 'vitest';
import { flowGraphSchema, type FlowGraphInput, type FlowNodeOf } from '@atrium/shared';
import { edge, menu, message, node, question, start } from '../../../../testing/flows.js';
import { matchMenuOption, evaluateCondition, renderFlowText } from './answers.js';
import { compileFlow, FlowRunner, MAX_PASSES, newSession, type FlowInput, type FlowIO, type MediaToSend } from './runner.js';
import type { FlowSession, FlowWait } from './session.js';

/**
 * The runner per node type and outcome, with a recording IO (the conformance suite drives the same runner
 * through the sandbox phone). Every effect a node has is asserted from what the IO was asked to do.
 */
class RecordingIO implements FlowIO {
  lang = 'pt';
  baseVars: Record<string, string> = { firstName: 'Maria', name: 'Maria Silva' };
  said: { nodeId: string; text: string; presence?: string }[] = [];
  media: (MediaToSend & { nodeId: string })[] = [];
  pauses: { nodeId: string; seconds: number; waitId: string }[] = [];
  deadlines: { nodeId: string; minutes: number; waitId: string }[] = [];
  forgotten: string[] = [];
  queues: number[] = [];
  handOffs: string[] = [];
  forwarded: string[] = [];
  rolls: number[] = [];
  knownQueues = new Set([7]);
  handOffResult: 'started' | 'unavailable' = 'unavailable';
  private clock = new Date('2026-11-27T12:00:00Z');

  now() {
    return this.clock;
  }
  random() {
    return this.rolls.shift() ?? 0.5;
  }
  async say(nodeId: string, text: string, presence?: 'typing') {
    this.said.push({ nodeId, text, ...(presence ? { presence } : {}) });
  }
  async sendMedia(nodeId: string, media: MediaToSend) {
    this.media.push({ nodeId, ...media });
  }
  async pause(nodeId: string, until: Date, waitId: string) {
    this.pauses.push({ nodeId, seconds: (until.getTime() - this.clock.getTime()) / 1000, waitId });
  }
  async expectReply(nodeId: string, until: Date, waitId: string) {
    this.deadlines.push({ nodeId, minutes: (until.getTime() - this.clock.getTime()) / 60_000, waitId });
    return `job-${waitId}`;
  }
  forgetReply(wait: FlowWait) {
    this.forgotten.push(wait.id);
  }
  async toQueue(_nodeId: string, queueId: number) {
    if (!this.knownQueues.has(queueId)) return false;
    this.queues.push(queueId);
    return true;
  }
  async handOff(n: FlowNodeOf<'typebot'> | FlowNodeOf<'openai'>) {
    this.handOffs.push(n.type);
    return this.handOffResult;
  }
  async forward(wait: Extract<FlowWait, { kind: 'handoff' }>) {
    this.forwarded.push(wait.id);
  }
  texts() {
    return this.said.map((s) => s.text);
  }
}

const flowOf = (graph: FlowGraphInput) => compileFlow(1, 1, flowGraphSchema.parse(graph));

/** A runner over the graph with its IO; `go` advances the kept session. */
const run = (graph: FlowGraphInput) => {
  const io = new RecordingIO();
  const flow = flowOf(graph);
  const runner = new FlowRunner(flow, io);
  let session: FlowSession = newSession(flow, 1);
  const go = async (input: FlowInput) => {
    const result = await runner.advance(session, input);
    session = result.session;
    return result;
  };
  return {
    io,
    go,
    get session() {
      return session;
    },
    start: () => go({ kind: 'start' }),
    say: (body: string, replyId?: string) => go({ kind: 'message', body, replyId, hasText: body.trim() !== '' }),
  };
};

const outcomes = (steps: { nodeId: string; outcome: string }[]) => steps.map((s) => `${s.nodeId}:${s.outcome}`);

describe('start and message nodes', () => {
  it('start passes through; messages are sent with variables, following edges, not the stored order', async () => {
    const r = run({
      nodes: [message('late', 'segunda'), start(), message('first', 'Olá {{firstName}}, {{nada}}!')],
      connections: [edge('first', 'late'), edge('1', 'first')],
    });
    const result = await r.start();
    expect(r.io.texts()).toEqual(['Olá Maria, !', 'segunda']);
    expect(result.status).toBe('done');
    expect(outcomes(result.steps)).toEqual(['1:a', 'first:a', 'late:a', 'late:done']);
  });

  it('a flow with only its start ends at once', async () => {
    const r = run({ nodes: [start()], connections: [] });
    expect((await r.start()).status).toBe('done');
  });
});

describe('menu', () => {
  const graph = {
    nodes: [start(), menu('m', 'Escolha:', ['Sim', 'Não'], { retries: 1, timeoutMinutes: 5 }), message('y', 'yes'), message('n', 'no'), message('bad', 'bad'), message('late', 'late')],
    connections: [edge('1', 'm'), edge('m', 'y', 'a1'), edge('m', 'n', 'a2'), edge('m', 'bad', 'invalid'), edge('m', 'late', 'timeout')],
  };

  it('asks with numbered lines and waits, with its "no reply" deadline', async () => {
    const r = run(graph);
    const result = await r.start();
    expect(result.status).toBe('waiting');
    expect(r.io.texts()).toEqual(['Escolha:\n\n[1] Sim\n[2] Não']);
    expect(r.session.wait).toMatchObject({ kind: 'answer', node: 'm', jobId: expect.stringMatching(/^job-/) });
    expect(r.io.deadlines).toEqual([{ nodeId: 'm', minutes: 5, waitId: r.session.wait!.id }]);
  });

  it.each([
    ['1', 'yes'],
    ['  2 ', 'no'],
    ['2)', 'no'],
    ['[1]', 'yes'],
    ['1.', 'yes'],
    ['NÃO', 'no'],
    ['nao', 'no'],
  ])('answer %j takes its option', async (answer, expected) => {
    const r = run(graph);
    await r.start();
    const wait = r.session.wait!;
    const result = await r.say(answer);
    expect(r.io.texts().at(-1)).toBe(expected);
    expect(result.status).toBe('done');
    expect(r.io.forgotten).toEqual([wait.id]);
  });

  it('a tapped button or list row picks the option by its id', async () => {
    const r = run(graph);
    await r.start();
    await r.say('', 'a2');
    expect(r.io.texts().at(-1)).toBe('no');
  });

  it('invalid: asked again up to its retries, then the invalid output', async () => {
    const r = run(graph);
    await r.start();
    const first = await r.say('talvez');
    expect(first.status).toBe('waiting');
    expect(outcomes(first.steps)).toEqual(['m:invalid']);
    expect(r.io.texts().at(-1)).toBe('Opção inválida. Responda com o número de uma das opções:\n\n[1] Sim\n[2] Não');
    // Asked again: a new deadline, the old one let go.
    expect(r.io.deadlines).toHaveLength(2);
    const second = await r.say('3');
    expect(outcomes(second.steps)).toEqual(['m:invalid', 'bad:a', 'bad:done']);
    expect(r.io.texts().at(-1)).toBe('bad');
  });

  it('invalid without an invalid output: a person takes over after the retries', async () => {
    const r = run({ ...graph, connections: graph.connections.filter((c) => c.sourceHandle !== 'invalid') });
    await r.start();
    await r.say('x');
    const result = await r.say('y');
    expect(result.status).toBe('handed');
    expect(r.session.wait).toBeNull();
  });

  it('no reply in time takes the timeout output; a stale deadline does nothing', async () => {
    const r = run(graph);
    await r.start();
    const waitId = r.session.wait!.id;
    expect((await r.go({ kind: 'timeout', waitId: 'another' })).applied).toBe(false);
    const result = await r.go({ kind: 'timeout', waitId });
    expect(outcomes(result.steps)).toEqual(['m:timeout', 'late:a', 'late:done']);
    expect((await r.go({ kind: 'timeout', waitId })).applied).toBe(false);
  });

  it('no reply in time without a timeout output: the run expires', async () => {
    const r = run({ ...graph, connections: graph.connections.filter((c) => c.sourceHandle !== 'timeout') });
    await r.start();
    expect((await r.go({ kind: 'timeout', waitId: r.session.wait!.id })).status).toBe('expired');
  });

  it('an option without an edge ends the flow', async () => {
    const r = run({ ...graph, connections: graph.connections.filter((c) => c.sourceHandle !== 'a2') });
    await r.start();
    expect((await r.say('2')).status).toBe('done');
  });
});

describe('question', () => {
  it('asks even when variables exist, stores the answer under its key and merges it', async () => {
    const r = run({
      nodes: [start(), question('q1', 'Nome?', 'nome'), question('q2', 'Cidade, {{nome}}?', 'cidade'), message('m', '{{nome}}/{{cidade}}')],
      connections: [edge('1', 'q1'), edge('q1', 'q2'), edge('q2', 'm')],
    });
    await r.start();
    await r.say(' Ana ');
    expect(r.io.texts()).toEqual(['Nome?', 'Cidade, Ana?']);
    const result = await r.say('Recife');
    expect(r.io.texts().at(-1)).toBe('Ana/Recife');
    expect(result.session.vars).toEqual({ nome: 'Ana', cidade: 'Recife' });
  });

  it('an answer without text (a sticker, an audio) is invalid and asked again', async () => {
    const r = run({
      nodes: [start(), question('q', 'Nome?', 'nome', { retries: 1 }), message('bad', 'sem nome')],
      connections: [edge('1', 'q'), edge('q', 'bad', 'invalid')],
    });
    await r.start();
    await r.go({ kind: 'message', body: '', hasText: false });
    expect(r.io.texts().at(-1)).toBe('Não consegui entender. Responda com um texto, por favor.\n\nNome?');
    await r.go({ kind: 'message', body: '', hasText: false });
    expect(r.io.texts().at(-1)).toBe('sem nome');
  });

  it('captured answers win over message variables of the same name', async () => {
    const r = run({
      nodes: [start(), question('q', 'Como quer ser chamado?', 'firstName'), message('m', 'Oi {{firstName}}')],
      connections: [edge('1', 'q'), edge('q', 'm')],
    });
    await r.start();
    await r.say('Mari');
    expect(r.io.texts().at(-1)).toBe('Oi Mari');
  });
});

describe('randomizer', () => {
  it('takes a with its percent, b otherwise', async () => {
    const graph = {
      nodes: [start(), node('r', 'randomizer', { percent: 30 }), message('a', 'A'), message('b', 'B')],
      connections: [edge('1', 'r'), edge('r', 'a', 'a'), edge('r', 'b', 'b')],
    };
    for (const [roll, expected] of [
      [0.1, 'A'],
      [0.29, 'A'],
      [0.3, 'B'],
      [0.99, 'B'],
    ] as const) {
      const r = run(graph);
      r.io.rolls.push(roll);
      await r.start();
      expect(r.io.texts()).toEqual([expected]);
    }
  });
});

describe('interval', () => {
  it('pauses as a planned wait, then goes on; a message meanwhile is not an answer', async () => {
    const r = run({
      nodes: [start(), node('i', 'interval', { sec: 30 }), question('q', 'Pergunta?', 'p'), message('m', '{{p}}')],
      connections: [edge('1', 'i'), edge('i', 'q'), edge('q', 'm')],
    });
    const paused = await r.start();
    expect(paused.status).toBe('waiting');
    expect(r.io.pauses).toEqual([{ nodeId: 'i', seconds: 30, waitId: r.session.wait!.id }]);
    const early = await r.say('cedo demais');
    expect(outcomes(early.steps)).toEqual(['i:ignored']);
    expect(r.io.texts()).toEqual([]);
    await r.go({ kind: 'resume', waitId: r.session.wait!.id });
    // The question asks: the early message did not answer it.
    expect(r.io.texts()).toEqual(['Pergunta?']);
    await r.say('agora');
    expect(r.io.texts().at(-1)).toBe('agora');
  });
});

describe('condition', () => {
  it.each([
    ['equals', 'Sim', 'sim', true],
    ['equals', 'Sim', 'não', false],
    ['notEquals', 'a', 'b', true],
    ['contains', 'boleto', 'quero o BOLETO hoje', true],
    ['notContains', 'boleto', 'pix', true],
    ['startsWith', 'ab', 'abc', true],
    ['endsWith', 'bc', 'abc', true],
    ['greaterThan', '17', '18', true],
    ['greaterThan', '17', '17', false],
    ['greaterThan', '17', 'dezoito', false],
    ['lessThan', '10,5', '9', true],
    ['isEmpty', '', '', true],
    ['isNotEmpty', '', 'x', true],
  ] as const)('%s %j on %j is %s', (operator, value, actual, expected) => {
    expect(evaluateCondition(operator, actual, value)).toBe(expected);
  });

  it('follows true or false', async () => {
    const graph = {
      nodes: [start(), question('q', 'Idade?', 'idade'), node('c', 'condition', { key: 'idade', condition: 'greaterThan', value: '17' }), message('t', 'T'), message('f', 'F')],
      connections: [edge('1', 'q'), edge('q', 'c'), edge('c', 't', 'true'), edge('c', 'f', 'false')],
    };
    const r = run(graph);
    await r.start();
    await r.say('40');
    const s = run(graph);
    await s.start();
    await s.say('4');
    expect([r.io.texts().at(-1), s.io.texts().at(-1)]).toEqual(['T', 'F']);
  });
});

describe('media nodes and content', () => {
  const file = (n: number, ext = 'png') => `abcdefghijklmno${n}.${ext}`;

  it('image, audio (as a voice note when recorded) and video nodes send their files', async () => {
    const r = run({
      nodes: [start(), node('i', 'img', { url: file(1) }), node('a', 'audio', { url: file(2, 'mp3'), record: true }), node('v', 'video', { url: file(3, 'mp4') })],
      connections: [edge('1', 'i'), edge('i', 'a'), edge('a', 'v')],
    });
    await r.start();
    expect(r.io.media).toEqual([
      { nodeId: 'i', fileName: file(1), kind: 'img', voiceNote: false },
      { nodeId: 'a', fileName: file(2, 'mp3'), kind: 'audio', voiceNote: true },
      { nodeId: 'v', fileName: file(3, 'mp4'), kind: 'video', voiceNote: false },
    ]);
  });

  it('a content node runs its cards in seq order, typing before texts, pausing at interval cards', async () => {
    const r = run({
      nodes: [
        start(),
        node('c', 'singleBlock', {
          seq: ['message1', 'img1', 'interval1', 'audio1', 'message2'],
          elements: [
            { type: 'message', number: 'message2', value: 'depois, {{firstName}}' },
            { type: 'img', number: 'img1', value: file(4) },
            { type: 'message', number: 'message1', value: 'antes' },
            { type: 'interval', number: 'interval1', value: 5 },
            { type: 'audio', number: 'audio1', value: file(5, 'ogg'), record: false },
          ],
        }),
        message('m', 'fim'),
      ],
      connections: [edge('1', 'c'), edge('c', 'm')],
    });
    const paused = await r.start();
    expect(paused.status).toBe('waiting');
    expect(r.io.said).toEqual([{ nodeId: 'c', text: 'antes', presence: 'typing' }]);
    expect(r.io.media.map((m) => m.fileName)).toEqual([file(4)]);
    expect(r.session.wait).toMatchObject({ kind: 'pause', node: 'c', index: 3 });
    expect(r.io.pauses[0].seconds).toBe(5);
    const done = await r.go({ kind: 'resume', waitId: r.session.wait!.id });
    expect(r.io.media.map((m) => m.fileName)).toEqual([file(4), file(5, 'ogg')]);
    expect(r.io.texts()).toEqual(['antes', 'depois, Maria', 'fim']);
    expect(done.status).toBe('done');
  });
});

describe('ticket node', () => {
  it('moves the ticket to its queue and ends the flow', async () => {
    const r = run({ nodes: [start(), node('t', 'ticket', { queue: { id: 7, name: 'Vendas' } })], connections: [edge('1', 't')] });
    const result = await r.start();
    expect(r.io.queues).toEqual([7]);
    expect(result.status).toBe('done');
  });

  it('a queue that is gone hands the conversation to a person', async () => {
    const r = run({ nodes: [start(), node('t', 'ticket', { queue: { id: 8, name: 'Apagada' } })], connections: [edge('1', 't')] });
    expect((await r.start()).status).toBe('handed');
  });
});

describe('typebot and openai nodes', () => {
  const graph = {
    nodes: [start(), node('tb', 'typebot', { typebotIntegration: { id: 3, name: 'Bot' } }), message('after', 'de volta')],
    connections: [edge('1', 'tb'), edge('tb', 'after')],
  };

  it('hand the conversation over and wait until it comes back', async () => {
    const r = run(graph);
    r.io.handOffResult = 'started';
    const result = await r.start();
    expect(result.status).toBe('waiting');
    expect(r.session.wait).toMatchObject({ kind: 'handoff', to: 'typebot' });
    // Meanwhile the customer's messages go to the client, not to the flow.
    const said = await r.go({ kind: 'message', body: 'oi', hasText: true });
    expect(said.status).toBe('waiting');
    expect(r.io.forwarded).toEqual([r.session.wait!.id]);
    expect(r.io.texts()).toEqual([]);
    const back = await r.go({ kind: 'handBack', waitId: r.session.wait!.id });
    expect(r.io.texts()).toEqual(['de volta']);
    expect(back.status).toBe('done');
  });

  it('when the client is not available, a person takes over', async () => {
    const r = run(graph);
    expect((await r.start()).status).toBe('handed');
  });
});

describe('guards', () => {
  it('a loop without a customer answer is stopped and handed to a person', async () => {
    const r = run({
      nodes: [start(), message('a', 'A'), message('b', 'B')],
      connections: [edge('1', 'a'), edge('a', 'b'), edge('b', 'a')],
    });
    const result = await r.start();
    expect(result.status).toBe('handed');
    expect(r.io.texts()).toHaveLength(MAX_PASSES * 2);
  });

  it('a loop of pauses is counted across resumes, not restarted by them', async () => {
    const r = run({
      nodes: [start(), message('a', 'A'), node('i', 'interval', { sec: 1 })],
      connections: [edge('1', 'a'), edge('a', 'i'), edge('i', 'a')],
    });
    let result = await r.start();
    let resumes = 0;
    while (result.status === 'waiting') {
      result = await r.go({ kind: 'resume', waitId: r.session.wait!.id });
      resumes += 1;
    }
    expect(result.status).toBe('handed');
    expect(resumes).toBe(MAX_PASSES);
  });

  it('a customer message in a menu loop counts the passes again', async () => {
    const r = run({
      nodes: [start(), menu('m', 'De novo?', ['Sim']), message('s', 'ok')],
      connections: [edge('1', 'm'), edge('m', 's', 'a1'), edge('s', 'm')],
    });
    await r.start();
    for (let i = 0; i < MAX_PASSES * 2; i += 1) expect((await r.say('1')).status).toBe('waiting');
  });
});

describe('answers and variables', () => {
  it('menu answers: numbers, option texts, and nothing else', () => {
    const options = [
      { number: 1, value: 'Vendas' },
      { number: 2, value: 'Suporte Técnico' },
    ];
    expect(matchMenuOption(options, '2')).toBe(2);
    expect(matchMenuOption(options, ' 1 ')).toBe(1);
    expect(matchMenuOption(options, '1)')).toBe(1);
    expect(matchMenuOption(options, 'suporte   tecnico')).toBe(2);
    expect(matchMenuOption(options, '3')).toBeNull();
    expect(matchMenuOption(options, '12')).toBeNull();
    expect(matchMenuOption(options, 'vendas e suporte')).toBeNull();
  });

  it('{{...}}: one namespace, unknown names render empty', () => {
    expect(renderFlowText('{{ a }}-{{b}}-{{ção}}', { a: '1', ção: '3' })).toBe('1--3');
    expect(renderFlowText('sem variáveis', {})).toBe('sem variáveis');
  });
});
