import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, ticketOf } from '../../../testing/conversation.js';
import { customer, edge, menu, message, node, phraseCampaign, question, savedFlow, start } from '../../../testing/flows.js';
import { createTenant, createTestDatabase, eventually, outboxSettled, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';

/**
 * The conformance suite, continued: how flows start and stop (the welcome and no-match flows of a
 * connection, no restart loop, a person or a queue taking the ticket, `active`), and what waits (an
 * interval as a stored job, a "no reply" deadline that outlives a server restart).
 */
let t: TestApp;
let a: Tenant;
let numberSeq = 0;
let phones = 0;
const nextNumber = () => `55219${String(60000000 + ++numberSeq).padStart(8, '0')}`;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const sql = <T = any>(query: string, params: unknown[] = []): Promise<T[]> => t.app.orm.em.fork().getConnection().execute(query, params);
/** A phone of its own per test (a plan allows 10 connections: a new company every 10). */
const phone = async () => {
  if (phones++ % 10 === 0) a = await createTenant(t, `FlowStarts${phones}`);
  return (await connectSandbox(t.api, a.admin.token)).id;
};
const silent = async (wa: number, c: ReturnType<typeof customer>) => {
  await outboxSettled(t.app, wa);
  expect((await c.unread()).map((m) => m.body)).toEqual([]);
};
const runsOf = async (number: string) => {
  const ticket = await ticketOf(t.api, a.admin.token, number);
  return sql<{ trigger: string; status: string }>(`select trigger, status from flow_runs where ticket_id = ? order by id`, [ticket.id]);
};

describe('the welcome flow', () => {
  it('greets the first message of a new conversation, once, and then never restarts by itself', async () => {
    const wa = await phone();
    const welcome = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('w', 'Bem-vindo, {{firstName}}!')], connections: [edge('1', 'w')] });
    expect((await t.api.put(`/whatsapp/${wa}`, { flowIdWelcome: welcome }, a.admin.token)).body.flowIdWelcome).toBe(welcome);
    const c = customer(t.api, a.admin.token, wa, nextNumber(), 'Carla Dias');
    await c.says('oi');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Bem-vindo, Carla!']);
    await c.says('oi de novo');
    await c.says('alguém?');
    await silent(wa, c);
    expect(await runsOf(c.number)).toEqual([{ trigger: 'welcome', status: 'done' }]);
  });

  it('greets a new conversation after the last one was closed', async () => {
    const wa = await phone();
    const welcome = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('w', 'Olá!')], connections: [edge('1', 'w')] });
    await t.api.put(`/whatsapp/${wa}`, { flowIdWelcome: welcome }, a.admin.token);
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('oi');
    await c.replies(1);
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, a.admin.token)).status).toBe(200);
    await outboxSettled(t.app, wa);
    await c.unread().then((m) => c.replies(m.length));
    await c.says('voltei');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Olá!']);
  });

  it('a phrase wins over the welcome flow', async () => {
    const wa = await phone();
    const welcome = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('w', 'Boas-vindas')], connections: [edge('1', 'w')] });
    const promo = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('p', 'Promoção!')], connections: [edge('1', 'p')] });
    await t.api.put(`/whatsapp/${wa}`, { flowIdWelcome: welcome }, a.admin.token);
    await phraseCampaign(t.api, a.admin.token, { flowId: promo, whatsappId: wa, phrase: 'promo' });
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('PROMO');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Promoção!']);
    await silent(wa, c);
  });

  it('a flow switched off does not greet', async () => {
    const wa = await phone();
    const welcome = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('w', 'Boas-vindas')], connections: [edge('1', 'w')] });
    await t.api.put(`/whatsapp/${wa}`, { flowIdWelcome: welcome }, a.admin.token);
    await t.api.put('/flowbuilder', { flowId: welcome, active: false }, a.admin.token);
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('oi');
    await silent(wa, c);
  });
});

describe('the no-match flow', () => {
  it('answers, once per conversation, a message nothing else answered', async () => {
    const wa = await phone();
    const fallback = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('n', 'Não entendi, mas já vou ajudar.')], connections: [edge('1', 'n')] });
    const promo = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('p', 'Promoção!')], connections: [edge('1', 'p')] });
    await t.api.put(`/whatsapp/${wa}`, { flowIdNotPhrase: fallback }, a.admin.token);
    await phraseCampaign(t.api, a.admin.token, { flowId: promo, whatsappId: wa, phrase: 'promo' });
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('promo');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Promoção!']);
    await c.says('blá');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Não entendi, mas já vou ajudar.']);
    // Never again in this conversation, whatever comes.
    await c.says('blá blá');
    await c.says('e agora?');
    await silent(wa, c);
    // A phrase still starts its flow.
    await c.says('promo');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Promoção!']);
    expect((await runsOf(c.number)).map((r) => r.trigger)).toEqual(['phrase', 'noMatch', 'phrase']);
  });

  it('does not answer what the queue chatbot handles', async () => {
    const wa = await phone();
    const fallback = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('n', 'fallback')], connections: [edge('1', 'n')] });
    await t.api.put(`/whatsapp/${wa}`, { flowIdNotPhrase: fallback, greetingMessage: 'Saudação do bot' }, a.admin.token);
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('oi');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Saudação do bot']);
    // The chatbot keeps the conversation (it greets once and waits for a person): nothing is left to the no-match flow.
    await c.says('oi?');
    await silent(wa, c);
  });
});

describe('no restart loop', () => {
  it('a flow that ended (done, handed, expired) waits for a new trigger; the welcome does not loop', async () => {
    const wa = await phone();
    const welcome = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), menu('m', 'Escolha', ['Sim'], { retries: 0 })],
      connections: [edge('1', 'm')],
    });
    await t.api.put(`/whatsapp/${wa}`, { flowIdWelcome: welcome, flowIdNotPhrase: welcome }, a.admin.token);
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('oi');
    await c.replies(1);
    // An invalid answer with no retries and no invalid output: a person takes over.
    await c.says('não sei');
    await eventually(async () => expect(await runsOf(c.number)).toEqual([{ trigger: 'welcome', status: 'handed' }]));
    // Then the no-match flow, once; after that, silence, whatever the customer says.
    await c.says('oi');
    await c.replies(1);
    await c.says('x');
    for (const body of ['oi', 'olá', 'menu', '1']) await c.says(body);
    await silent(wa, c);
    expect(await runsOf(c.number)).toEqual([
      { trigger: 'welcome', status: 'handed' },
      { trigger: 'noMatch', status: 'handed' },
    ]);
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    expect(ticket).toMatchObject({ status: 'pending', userId: null });
  });
});

describe('a person or a queue takes the ticket', () => {
  it('an agent accepting the ticket stops the flow', async () => {
    const wa = await phone();
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), question('q', 'Seu nome?', 'nome'), message('m', 'Obrigado')],
      connections: [edge('1', 'q'), edge('q', 'm')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'cadastro' });
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('cadastro');
    await c.replies(1);
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: a.admin.id }, a.admin.token)).status).toBe(200);
    await c.says('Ana');
    await silent(wa, c);
    await eventually(async () => expect(await runsOf(c.number)).toEqual([{ trigger: 'phrase', status: 'handed' }]));
    expect(await sql(`select * from conversation_holds where ticket_id = ?`, [ticket.id])).toEqual([]);
  });

  it('a flow switched off while it waits stops at the next message, which goes on to the other automation', async () => {
    const wa = await phone();
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), question('q', 'Seu nome?', 'nome'), message('m', 'Obrigado')],
      connections: [edge('1', 'q'), edge('q', 'm')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'cadastro' });
    await t.api.put(`/whatsapp/${wa}`, { greetingMessage: 'Saudação' }, a.admin.token);
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('cadastro');
    await c.replies(1);
    await t.api.put('/flowbuilder', { flowId, active: false }, a.admin.token);
    await c.says('Ana');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Saudação']);
    expect(await runsOf(c.number)).toEqual([{ trigger: 'phrase', status: 'expired' }]);
  });

  it('an edit saved while a customer waits does not change the graph under them', async () => {
    const wa = await phone();
    const graph = (text: string) => ({ nodes: [start(), question('q', 'Nome?', 'nome'), message('m', text)], connections: [edge('1', 'q'), edge('q', 'm')] });
    const flowId = await savedFlow(t.api, a.admin.token, graph('versão 1'));
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'versao' });
    const c1 = customer(t.api, a.admin.token, wa, nextNumber());
    await c1.says('versao');
    await c1.replies(1);
    await t.api.post('/flowbuilder/flow', { idFlow: flowId, ...graph('versão 2') }, a.admin.token);
    const c2 = customer(t.api, a.admin.token, wa, nextNumber());
    await c2.says('versao');
    await c2.replies(1);
    await c1.says('Ana');
    await c2.says('Bia');
    expect((await c1.replies(1))[0].body).toBe('versão 1');
    expect((await c2.replies(1))[0].body).toBe('versão 2');
    // Version 1 goes once no run uses it.
    await t.api.post('/flowbuilder/flow', { idFlow: flowId, ...graph('versão 3') }, a.admin.token);
    expect(await sql(`select version from flow_versions where flow_id = ?`, [flowId])).toEqual([{ version: 3 }]);
  });
});

describe('waits', () => {
  it('an interval is a stored job: the flow goes on after it, without holding the connection', async () => {
    const wa = await phone();
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), message('a', 'Um momento...'), node('i', 'interval', { sec: 1 }), message('b', 'Pronto!')],
      connections: [edge('1', 'a'), edge('a', 'i'), edge('i', 'b')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'espera' });
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('espera');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Um momento...']);
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    const [hold] = await sql(`select state from conversation_holds where ticket_id = ?`, [ticket.id]);
    expect(hold.state.wait).toMatchObject({ kind: 'pause', node: 'i' });
    // Another customer of the same phone is answered meanwhile.
    const other = customer(t.api, a.admin.token, wa, nextNumber());
    await other.says('espera');
    expect((await other.replies(1)).map((m) => m.body)).toEqual(['Um momento...']);
    expect((await c.replies(1, 20_000)).map((m) => m.body)).toEqual(['Pronto!']);
  });

  it('a content node sends its cards in order, pausing at its interval card', async () => {
    const wa = await phone();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
    const form = new FormData();
    form.append('medias', new Blob([png], { type: 'image/png' }), 'foto.png');
    const uploaded = await fetch(`${t.app.url}/flowbuilder/content`, { method: 'POST', body: form, headers: { authorization: `Bearer ${a.admin.token}` } });
    const [image] = (await uploaded.json()) as string[];
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [
        start(),
        node('c', 'singleBlock', {
          seq: ['message1', 'img1', 'interval1', 'message2'],
          elements: [
            { type: 'message', number: 'message1', value: 'Veja a foto, {{firstName}}' },
            { type: 'img', number: 'img1', value: image, original: 'foto.png' },
            { type: 'interval', number: 'interval1', value: 1 },
            { type: 'message', number: 'message2', value: 'Gostou?' },
          ],
        }),
      ],
      connections: [edge('1', 'c')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'foto' });
    const c = customer(t.api, a.admin.token, wa, nextNumber(), 'Rui Alves');
    await c.says('foto');
    const first = await c.replies(2);
    expect(first.map((m) => [m.body, m.mediaType ?? null])).toEqual([
      ['Veja a foto, Rui', null],
      ['', 'image'],
    ]);
    expect((await c.replies(1, 20_000)).map((m) => m.body)).toEqual(['Gostou?']);
  });

  it("a pause that ends before the flow's transaction commits still goes on once it has", async () => {
    const wa = await phone();
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [
        start(),
        node('c', 'singleBlock', {
          seq: ['message1', 'interval1', 'message2'],
          elements: [
            { type: 'message', number: 'message1', value: 'Um momento' },
            { type: 'interval', number: 'interval1', value: 1 },
            { type: 'message', number: 'message2', value: 'Pronto' },
          ],
        }),
      ],
      connections: [edge('1', 'c')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'pausa' });
    // A slow commit, forced: the flow's transaction cannot write its run until this one lets go of the
    // table, so the 1 s pause is due (its job runs) while the flow that planned it has not committed.
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.app.orm.em.fork().transactional(async (tx) => {
      await tx.execute('lock table flow_runs in share mode');
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    // Not awaited yet: the message's pipeline is what the lock holds up.
    const said = c.says('pausa');
    try {
      await eventually(
        async () => (await sql(`select 1 from agenda_jobs where name = 'inbound:resume-step' and data -> 'facts' ->> 'whatsappId' = ? and last_run_at is not null`, [String(wa)])).length > 0,
        20_000,
      );
    } finally {
      release();
      await holder;
      await said;
    }
    expect((await c.replies(2, 20_000)).map((m) => m.body)).toEqual(['Um momento', 'Pronto']);
  }, 60_000);
  it('a pause whose resume fails (a deadlock under load) goes on at the next try', async () => {
    const wa = await phone();
    // The resume's transaction fails once, as a deadlock would: the end of the flow ("done") is the first
    // thing it logs on this node (a sequence, so the count survives the rollback).
    await sql(`create sequence resume_fails`);
    await sql(
      `create function resume_fails() returns trigger language plpgsql as $$
       begin
         if new.node_id = 'pauseFails' and new.outcome = 'done' and nextval('resume_fails') = 1 then
           raise exception 'deadlock detected' using errcode = '40P01';
         end if;
         return new;
       end $$`,
    );
    await sql(`create trigger resume_fails before insert on flow_steps for each row execute function resume_fails()`);
    try {
      const flowId = await savedFlow(t.api, a.admin.token, {
        nodes: [
          start(),
          node('pauseFails', 'singleBlock', {
            seq: ['message1', 'interval1', 'message2'],
            elements: [
              { type: 'message', number: 'message1', value: 'Aguarde' },
              { type: 'interval', number: 'interval1', value: 1 },
              { type: 'message', number: 'message2', value: 'Continuando' },
            ],
          }),
        ],
        connections: [edge('1', 'pauseFails')],
      });
      await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'falha' });
      const c = customer(t.api, a.admin.token, wa, nextNumber());
      await c.says('falha');
      expect((await c.replies(2, 20_000)).map((m) => m.body)).toEqual(['Aguarde', 'Continuando']);
      expect(await runsOf(c.number)).toEqual([{ trigger: 'phrase', status: 'done' }]);
      expect(await sql(`select nextval('resume_fails')::int as n`)).toEqual([{ n: 3 }]);
    } finally {
      await sql(`drop trigger resume_fails on flow_steps`);
      await sql(`drop function resume_fails()`);
      await sql(`drop sequence resume_fails`);
    }
  });
});

describe('a "no reply" deadline', () => {
  it('takes the timeout output after a server restart', async () => {
    const db = await createTestDatabase();
    let app = await startTestApp({}, { sharedDatabaseUrl: db.url });
    try {
      const tenant = await createTenant(app, 'Restart');
      const wa = (await connectSandbox(app.api, tenant.admin.token)).id;
      const flowId = await savedFlow(app.api, tenant.admin.token, {
        nodes: [start(), question('q', 'Ainda está aí?', 'resposta', { timeoutMinutes: 1 }), message('ok', 'Obrigado!'), message('late', 'Como não respondeu, encerramos.')],
        connections: [edge('1', 'q'), edge('q', 'ok'), edge('q', 'late', 'timeout')],
      });
      await phraseCampaign(app.api, tenant.admin.token, { flowId, whatsappId: wa, phrase: 'lembrete' });
      const number = nextNumber();
      let c = customer(app.api, tenant.admin.token, wa, number);
      await c.says('lembrete');
      await c.replies(1);
      const ticket = await ticketOf(app.api, tenant.admin.token, number);
      const [hold] = await app.app.orm.em.fork().getConnection().execute(`select state from conversation_holds where ticket_id = ?`, [ticket.id]);
      expect(hold.state.wait).toMatchObject({ kind: 'answer', node: 'q', until: expect.any(String), jobId: expect.any(String) });

      await app.stop();
      app = await startTestApp({}, { sharedDatabaseUrl: db.url });
      const token = (await app.api.login(tenant.admin.email, tenant.admin.password)).token;
      c = customer(app.api, token, wa, number);
      await c.replies(1); // the question, received before the restart
      // The minute passes (the stored job is made due now rather than waiting for it).
      const moved = await app.app.orm.em
        .fork()
        .getConnection()
        .execute(`update agenda_jobs set next_run_at = now() where id = ? returning id`, [hold.state.wait.jobId]);
      expect(moved).toHaveLength(1);
      expect((await c.replies(1, 30_000)).map((m) => m.body)).toEqual(['Como não respondeu, encerramos.']);
      const runs = await app.app.orm.em.fork().getConnection().execute(`select status from flow_runs where ticket_id = ?`, [ticket.id]);
      expect(runs).toEqual([{ status: 'done' }]);
    } finally {
      await app.stop();
      await db.drop();
    }
  }, 120_000);

  it('answered in time, the deadline is cancelled and does nothing', async () => {
    const wa = await phone();
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), question('q', 'Nome?', 'nome', { timeoutMinutes: 1 }), message('ok', 'Oi {{nome}}'), message('late', 'tarde')],
      connections: [edge('1', 'q'), edge('q', 'ok'), edge('q', 'late', 'timeout')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'prazo' });
    const c = customer(t.api, a.admin.token, wa, nextNumber());
    await c.says('prazo');
    await c.replies(1);
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    const [hold] = await sql(`select state from conversation_holds where ticket_id = ?`, [ticket.id]);
    await c.says('Ana');
    expect((await c.replies(1))[0].body).toBe('Oi Ana');
    await eventually(async () => expect(await sql(`select id from agenda_jobs where id = ?`, [hold.state.wait.jobId])).toEqual([]));
  });
});
