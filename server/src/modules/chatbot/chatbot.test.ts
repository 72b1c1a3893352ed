import { randomBytes } from 'node:crypto';
import { WEEKDAYS } from '@atrium/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import { connectSandbox, customerSays, outbox } from '../../../testing/conversation.js';
import { connectSocket, createTenant, eventually, joined, outboxSettled, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { ConversationHold } from '../tickets/conversation-hold.entity.js';
import { chatbotState } from './state.js';
import { acceptInbound } from '../../pipeline/inbound.js';
import { runChatbot, type ChatbotDeps } from './chatbot.js';
import { localClock } from './hours.js';
import { expirySweep, transferSweep } from './sweeps.js';

/**
 * The queue chatbot end to end through the sandbox phone: customers write, the bot answers in the
 * conversation (what the phone received is the sandbox outbox), the ticket moves and the clients hear it.
 */
let t: TestApp;
let planId: number;
let deps: ChatbotDeps;
const sockets: Socket[] = [];

const hex = () => randomBytes(3).toString('hex');
let seq = 0;
const newCustomer = () => `55219${String(Date.now() % 1_000_000).padStart(6, '0')}${String(++seq).padStart(2, '0')}`;

const newQueue = async (tenant: Tenant, body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/queue', { name: `Q ${hex()}`, color: `#${hex()}`, greetingMessage: 'Olá!', ...body }, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string };
};
const newOption = async (tenant: Tenant, body: Record<string, unknown>) => {
  const res = await t.api.post('/queue-options', body, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number };
};
/** A connected sandbox connection with these settings (queueIds, greetingMessage, maxUseBotQueues...). */
const connection = async (tenant: Tenant, settings: Record<string, unknown>) => {
  const wa = await connectSandbox(t.api, tenant.admin.token);
  const res = await t.api.put(`/whatsapp/${wa.id}`, settings, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return wa;
};
const setting = async (tenant: Tenant, key: string, value: string) =>
  expect((await t.api.put(`/settings/${key}`, { value }, tenant.admin.token)).status).toBe(200);

/** One customer talking to one connection: what they say, what their phone received since. */
const chat = (tenant: Tenant, wa: { id: number }, name = 'Maria Souza') => {
  const number = newCustomer();
  let seen = 0;
  const phone = async () => (await outbox(t.api, tenant.admin.token, wa.id)).filter((m) => m.to === number).map((m) => m.body);
  /** What the phone received since last asked, once what the platform queued has left. */
  const heard = async () => {
    await outboxSettled(t.app, wa.id);
    const all = await phone();
    const fresh = all.slice(seen);
    seen = all.length;
    return fresh;
  };
  return {
    number,
    heard,
    /** The customer writes; resolves with what the bot sent back (the pipeline runs within the request). */
    says: async (body: string) => {
      // The bot has answered when the request returns; its answers leave through the outbox.
      await customerSays(t.api, tenant.admin.token, wa.id, { from: number, name, body });
      return heard();
    },
    ticket: async () => {
      const res = await t.api.get(`/tickets?showAll=true&searchParam=${number}`, tenant.admin.token);
      return (res.body.tickets as any[]).find((x) => x.contact?.number === number);
    },
  };
};
/** The chatbot's memory of a ticket (its conversation hold). */
const botMemory = async (ticketId: number) =>
  chatbotState(await forSystem(t.app.orm.em.fork()).findOneOrFail(ConversationHold, { ticketId }));

/** Minutes of the day in the company's zone, as HH:MM (wrapping round midnight). */
const hhmm = (minutes: number) => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};
const nowIn = (timeZone: string) => localClock(new Date(), timeZone).minutes;
const everyDay = (startTime: string, endTime: string) => WEEKDAYS.map((d) => ({ weekdayEn: d.weekdayEn, startTime, endTime }));
const closedNow = (tz = 'America/Sao_Paulo') => everyDay(hhmm(nowIn(tz) + 120), hhmm(nowIn(tz) + 180));
const openNow = (tz = 'America/Sao_Paulo') => everyDay(hhmm(nowIn(tz) - 60), hhmm(nowIn(tz) + 60));

const socketOf = async (token: string, status = 'pending') => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  await joined(socket, 'joinTickets', status);
  const events: any[] = [];
  return { socket, events };
};

beforeAll(async () => {
  t = await startTestApp();
  const plan = await t.api.post('/plans', { name: `Bot ${hex()}`, users: 10, connections: 30, queues: 50 }, t.superToken);
  planId = plan.body.id;
  deps = {
    systemEm: () => forSystem(t.app.orm.em),
    logger: t.app.logger,
    channels: t.app.channels,
    media: t.app.media,
    events: t.app.events,
  };
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('several queues with an option tree', () => {
  let a: Tenant;
  let vendas: { id: number; name: string };
  let suporte: { id: number; name: string };
  let wa: { id: number };
  let planos: { id: number };
  beforeAll(async () => {
    a = await createTenant(t, 'BotTree', planId);
    vendas = await newQueue(a, { name: 'Vendas', greetingMessage: 'Bem-vindo às vendas, {{firstName}}', orderQueue: 1 });
    suporte = await newQueue(a, { name: 'Suporte', greetingMessage: 'Suporte aqui, {{name}}. Já te atendemos.', orderQueue: 2 });
    planos = await newOption(a, { queueId: vendas.id, title: 'Planos', message: 'Escolha o plano' });
    await newOption(a, { queueId: vendas.id, parentId: planos.id, title: 'Básico', message: 'O básico custa R$ 10, {{firstName}}' });
    await newOption(a, { queueId: vendas.id, parentId: planos.id, title: 'Premium', message: 'O premium custa R$ 50' });
    await newOption(a, { queueId: vendas.id, title: 'Falar com atendente', message: 'Aguarde, já vamos te atender' });
    wa = await connection(a, { queueIds: [suporte.id, vendas.id], greetingMessage: 'Olá {{firstName}}! Escolha um setor:', maxUseBotQueues: 10 });
  });

  const MENU = 'Olá Maria! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte';
  const VENDAS_MENU = 'Bem-vindo às vendas, Maria\n\n*[ 1 ]* - Planos\n*[ 2 ]* - Falar com atendente\n\n*[ # ]* - Menu inicial';
  const PLANOS_MENU = 'Escolha o plano\n\n*[ 1 ]* - Básico\n*[ 2 ]* - Premium\n\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial';

  it('greeting → queue → option → sub-option: the ticket waits in the queue, the clients hear it', async () => {
    const watcher = await socketOf(a.admin.token);
    watcher.socket.on(`company-${a.companyId}-ticket`, (e: any) => watcher.events.push(e));
    const maria = chat(a, wa);

    expect(await maria.says('Oi')).toEqual([MENU]);
    const first = await maria.ticket();
    expect(first).toMatchObject({ status: 'pending', queueId: null, chatbot: false, userId: null });

    expect(await maria.says('1')).toEqual([VENDAS_MENU]);
    expect(await maria.ticket()).toMatchObject({ status: 'pending', queueId: vendas.id, chatbot: true, queue: { name: 'Vendas' } });
    // The waiting list hears the ticket move into the queue, with the bot on.
    await eventually(() =>
      watcher.events.some((e) => e.action === 'update' && e.ticket.id === first.id && e.ticket.queueId === vendas.id && e.ticket.chatbot),
    );

    expect(await maria.says('1')).toEqual([PLANOS_MENU]);
    expect(await maria.says('1')).toEqual(['O básico custa R$ 10, Maria']);
    expect(await maria.ticket()).toMatchObject({ status: 'pending', queueId: vendas.id, chatbot: false, userId: null });
    await eventually(() => watcher.events.some((e) => e.action === 'update' && e.ticket.id === first.id && e.ticket.chatbot === false));

    // A leaf is sent once; the bot has ended.
    expect(await maria.says('1')).toEqual([]);
    expect(await maria.says('#')).toEqual([]);
    expect((await maria.ticket()).queueId).toBe(vendas.id);

    // Everything the bot said is in the conversation's history.
    const history = await t.api.get(`/messages/${first.id}`, a.admin.token);
    const bodies = (history.body.messages as any[]).map((m) => [m.fromMe, m.body]);
    for (const text of [MENU, VENDAS_MENU, PLANOS_MENU, 'O básico custa R$ 10, Maria']) expect(bodies).toContainEqual([true, text]);
    expect(bodies).toContainEqual([false, 'Oi']);
  });

  it("counts the customer's messages as unread through the bot: its replies neither reset nor count (spec 03's note)", async () => {
    const lia = chat(a, wa, 'Lia');
    // A brand-new customer who got the menu is one unread message, in the bell's list too.
    expect(await lia.says('oi')).toHaveLength(1);
    const ticket = await lia.ticket();
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 1 });
    const bell = async () =>
      ((await t.api.get('/tickets?withUnreadMessages=true', a.admin.token)).body.tickets as any[]).find((x) => x.id === ticket.id);
    expect(await bell()).toMatchObject({ unreadMessages: 1 });
    // "1" then the option that hands over to a person: three customer messages, three bot replies.
    expect(await lia.says('1')).toHaveLength(1);
    expect(await lia.says('2')).toEqual(['Aguarde, já vamos te atender']);
    expect(await lia.ticket()).toMatchObject({ status: 'pending', queueId: vendas.id, chatbot: false, unreadMessages: 3 });
    expect(await bell()).toMatchObject({ unreadMessages: 3 });
    // A person's reply is a read: the count starts again from there.
    await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: a.admin.id }, a.admin.token);
    expect((await t.api.post(`/messages/${ticket.id}`, { body: 'Olá Lia' }, a.admin.token)).status).toBe(200);
    expect(await lia.ticket()).toMatchObject({ unreadMessages: 0 });
    await lia.says('obrigada');
    expect(await lia.ticket()).toMatchObject({ unreadMessages: 1 });
  });

  it('a queue without options greets and ends the bot', async () => {
    const joao = chat(a, wa, 'João Silva');
    expect(await joao.says('bom dia')).toHaveLength(1);
    expect(await joao.says('2')).toEqual(['Suporte aqui, João Silva. Já te atendemos.']);
    expect(await joao.ticket()).toMatchObject({ queueId: suporte.id, chatbot: false, status: 'pending' });
    expect(await joao.says('alô?')).toEqual([]);
  });

  it('invalid answers repeat the current menu; "0" goes up a level', async () => {
    const ana = chat(a, wa, 'Ana');
    expect(await ana.says('Oi')).toHaveLength(1);
    expect(await ana.says('9')).toEqual([MENU.replace('Maria', 'Ana')]);
    expect(await ana.says('vendas')).toEqual([MENU.replace('Maria', 'Ana')]);
    expect(await ana.says('1')).toEqual([VENDAS_MENU.replace('Maria', 'Ana')]);
    expect(await ana.says('7')).toEqual([VENDAS_MENU.replace('Maria', 'Ana')]);
    expect(await ana.says('1')).toEqual([PLANOS_MENU]);
    expect(await ana.says('nenhum')).toEqual([PLANOS_MENU]);
    expect(await ana.says('0')).toEqual([VENDAS_MENU.replace('Maria', 'Ana')]);
    expect(await ana.says('2')).toEqual(['Aguarde, já vamos te atender']);
    expect(await ana.ticket()).toMatchObject({ queueId: vendas.id, chatbot: false });
  });

  it('"#" clears the queue and shows the queue menu again, only while the bot runs', async () => {
    const watcher = await socketOf(a.admin.token);
    watcher.socket.on(`company-${a.companyId}-ticket`, (e: any) => watcher.events.push(e));
    const bia = chat(a, wa, 'Bia');
    await bia.says('Oi');
    await bia.says('1');
    await bia.says('1');
    const ticket = await bia.ticket();
    expect(ticket).toMatchObject({ queueId: vendas.id, chatbot: true });
    watcher.events.length = 0;

    expect(await bia.says('#')).toEqual([MENU.replace('Maria', 'Bia')]);
    expect(await bia.ticket()).toMatchObject({ queueId: null, chatbot: false });
    // The queue's list drops it.
    await eventually(() => watcher.events.some((e) => e.action === 'update' && e.ticket.id === ticket.id && e.ticket.queueId === null));
    expect(await bia.says('2')).toEqual(['Suporte aqui, Bia. Já te atendemos.']);

    // Taken by an agent: "#" is just a message.
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: a.admin.id }, a.admin.token)).status).toBe(200);
    expect(await bia.says('#')).toEqual([]);
    expect(await bia.ticket()).toMatchObject({ queueId: suporte.id, status: 'open', userId: a.admin.id });
  });

  it('our own messages typed on the phone never run the bot', async () => {
    const carla = chat(a, wa, 'Carla');
    await carla.says('Oi');
    const ticket = await carla.ticket();
    const facts = { companyId: a.companyId, whatsappId: wa.id, ticketId: ticket.id, contactId: ticket.contact.id, messageId: 0 };
    await runChatbot(deps, [{ ...facts, body: '1', fromMe: true, isGroup: false, isNewTicket: false, mediaType: 'chat', ratingReply: false }]);
    expect(await carla.heard()).toEqual([]);
    expect((await carla.ticket()).queueId).toBeNull();
    // The same answer from the customer does choose.
    await runChatbot(deps, [{ ...facts, body: '1', fromMe: false, isGroup: false, isNewTicket: false, mediaType: 'chat', ratingReply: false }]);
    expect(await carla.heard()).toHaveLength(1);
    expect((await carla.ticket()).queueId).toBe(vendas.id);
  });

  it('a message that could not be read (a placeholder) opens the ticket without a menu; the next one gets it', async () => {
    const lead = chat(a, wa, 'Maria');
    // What the channel hands over for an undecryptable message or an ad's lead without content.
    const placeholder = { id: `PH-${hex()}`, fromMe: false, chat: { number: lead.number, lid: null, name: 'Maria' }, body: '', mediaType: 'unavailable' as const, timestamp: new Date() };
    expect(await acceptInbound(t.app.pipeline, { id: wa.id, companyId: a.companyId }, placeholder)).toBe('stored');
    expect(await lead.ticket()).toMatchObject({ status: 'pending', queueId: null });
    expect(await lead.heard()).toEqual([]);
    expect(await lead.says('Oi')).toEqual([MENU]);
  });

  it('messages arriving together run the bot one at a time', async () => {
    const limited = await connection(a, { queueIds: [suporte.id, vendas.id], greetingMessage: 'Escolha:', maxUseBotQueues: 1 });
    const rush = chat(a, limited, 'Rush');
    await Promise.all(['a', 'b', 'c', 'd'].map((body) => customerSays(t.api, a.admin.token, limited.id, { from: rush.number, body })));
    // One menu, then the limit: whatever the interleaving, never a second menu.
    await outboxSettled(t.app, limited.id);
    const sent = (await outbox(t.api, a.admin.token, limited.id)).filter((m) => m.to === rush.number);
    expect(sent.map((m) => m.body)).toEqual(['Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
    expect((await botMemory((await rush.ticket()).id)).menus).toBe(2);
  });
});

describe('one queue', () => {
  let c: Tenant;
  beforeAll(async () => {
    c = await createTenant(t, 'BotOne', planId);
  });

  it('without sendGreetingMessageOneQueues the ticket just gets the queue', async () => {
    const only = await newQueue(c, { name: 'Única', greetingMessage: 'Oi da fila' });
    const wa = await connection(c, { queueIds: [only.id], greetingMessage: 'Bem-vindo!' });
    const zeca = chat(c, wa, 'Zeca');
    expect(await zeca.says('Oi')).toEqual([]);
    expect(await zeca.ticket()).toMatchObject({ queueId: only.id, chatbot: false, status: 'pending' });
  });

  it('with the setting the connection greets; with options the first message is read as a choice', async () => {
    await setting(c, 'sendGreetingMessageOneQueues', 'enabled');
    const menuQueue = await newQueue(c, { name: 'Com menu', greetingMessage: 'Escolha uma opção' });
    await newOption(c, { queueId: menuQueue.id, title: 'Segunda via', message: 'Segue sua segunda via, {{firstName}}' });
    await newOption(c, { queueId: menuQueue.id, title: 'Outros', message: 'Um atendente já vem' });
    const wa = await connection(c, { queueIds: [menuQueue.id], greetingMessage: 'Bem-vindo, {{firstName}}!' });

    const lia = chat(c, wa, 'Lia Reis');
    expect(await lia.says('Oi')).toEqual(['Bem-vindo, Lia!', 'Escolha uma opção\n\n*[ 1 ]* - Segunda via\n*[ 2 ]* - Outros\n\n*[ # ]* - Menu inicial']);
    expect(await lia.ticket()).toMatchObject({ queueId: menuQueue.id, chatbot: true });
    expect(await lia.says('1')).toEqual(['Segue sua segunda via, Lia']);

    const rui = chat(c, wa, 'Rui');
    expect(await rui.says('2')).toEqual(['Bem-vindo, Rui!', 'Um atendente já vem']);
    expect(await rui.ticket()).toMatchObject({ queueId: menuQueue.id, chatbot: false, status: 'pending' });
    await setting(c, 'sendGreetingMessageOneQueues', 'disabled');
  });

  it('chatBotType button or list still gets the text menu', async () => {
    await setting(c, 'chatBotType', 'list');
    const q1 = await newQueue(c, { name: `Lista ${hex()}`, orderQueue: 1 });
    const q2 = await newQueue(c, { name: `Botão ${hex()}`, orderQueue: 2 });
    const wa = await connection(c, { queueIds: [q1.id, q2.id], greetingMessage: 'Menu:' });
    expect(await chat(c, wa).says('Oi')).toEqual([`Menu:\n\n*[ 1 ]* - ${q1.name}\n*[ 2 ]* - ${q2.name}`]);
    await setting(c, 'chatBotType', 'text');
  });
});

describe('maxUseBotQueues', () => {
  let d: Tenant;
  let q1: { id: number; name: string };
  let q2: { id: number; name: string };
  beforeAll(async () => {
    d = await createTenant(t, 'BotMax', planId);
    q1 = await newQueue(d, { name: 'Um', orderQueue: 1 });
    q2 = await newQueue(d, { name: 'Dois', orderQueue: 2 });
  });
  const MENU = 'Escolha:\n\n*[ 1 ]* - Um\n*[ 2 ]* - Dois';

  it('stops the bot after that many menus and leaves the ticket waiting, silent for the rest of the conversation', async () => {
    const wa = await connection(d, { queueIds: [q1.id, q2.id], greetingMessage: 'Escolha:', maxUseBotQueues: 2 });
    const leo = chat(d, wa, 'Leo');
    expect(await leo.says('Oi')).toEqual([MENU]);
    expect(await leo.says('x')).toEqual([MENU]);
    expect(await leo.says('y')).toEqual([]);
    expect(await leo.says('1')).toEqual([]);
    expect(await leo.says('#')).toEqual([]);
    expect(await leo.ticket()).toMatchObject({ status: 'pending', queueId: null, chatbot: false, userId: null });
  });

  it('counts option menus too, and routes to transferQueueId when the ticket has no queue', async () => {
    const withOptions = await newQueue(d, { name: `Opções ${hex()}`, orderQueue: 3 });
    await newOption(d, { queueId: withOptions.id, title: 'A', message: 'a' });
    const wa = await connection(d, { queueIds: [q1.id, withOptions.id], greetingMessage: 'Escolha:', maxUseBotQueues: 2, transferQueueId: q2.id });
    const mia = chat(d, wa, 'Mia');
    expect(await mia.says('Oi')).toHaveLength(1);
    expect(await mia.says('2')).toHaveLength(1); // the options menu: second menu
    expect(await mia.says('9')).toEqual([]); // a third menu would be one too many
    expect(await mia.ticket()).toMatchObject({ queueId: withOptions.id, chatbot: false, status: 'pending' });

    const noe = chat(d, wa, 'Noé');
    expect(await noe.says('Oi')).toHaveLength(1);
    expect(await noe.says('?')).toHaveLength(1);
    expect(await noe.says('??')).toEqual([]);
    expect(await noe.ticket()).toMatchObject({ queueId: q2.id, chatbot: false, status: 'pending' });
  });

  it('with timeUseBotQueues the bot is silent for that long, then starts again', async () => {
    const wa = await connection(d, { queueIds: [q1.id, q2.id], greetingMessage: 'Escolha:', maxUseBotQueues: 1, timeUseBotQueues: 30 });
    const ivo = chat(d, wa, 'Ivo');
    expect(await ivo.says('Oi')).toEqual([MENU]);
    const before = Date.now();
    expect(await ivo.says('?')).toEqual([]);
    const ticket = await ivo.ticket();
    const paused = await botMemory(ticket.id);
    expect(new Date(paused.pausedUntil!).getTime()).toBeGreaterThanOrEqual(before + 29 * 60_000);
    expect(await ivo.says('1')).toEqual([]);
    expect((await ivo.ticket()).queueId).toBeNull();
    // Half an hour later (the pause moved into the past): the bot answers again.
    await forSystem(t.app.orm.em.fork()).nativeUpdate(
      ConversationHold,
      { ticketId: ticket.id },
      { memory: { menus: paused.menus, pausedUntil: new Date(Date.now() - 1000).toISOString() } },
    );
    expect(await ivo.says('oi de novo')).toEqual([MENU]);
    expect(await ivo.says('1')).toEqual(['Olá!']);
    expect(await ivo.ticket()).toMatchObject({ queueId: q1.id });
  });
});

describe('out of hours, scheduleType company', () => {
  let e: Tenant;
  let wa: { id: number };
  beforeAll(async () => {
    e = await createTenant(t, 'BotCompanyHours', planId);
    const q1 = await newQueue(e, { name: 'Um', orderQueue: 1 });
    const q2 = await newQueue(e, { name: 'Dois', orderQueue: 2 });
    wa = await connection(e, {
      queueIds: [q1.id, q2.id],
      greetingMessage: 'Escolha:',
      outOfHoursMessage: 'Estamos fechados, {{firstName}}. Voltamos amanhã.',
    });
    await setting(e, 'scheduleType', 'company');
  });
  const schedules = (list: unknown) =>
    t.api.put(`/companies/${e.companyId}/schedules`, { schedules: list }, e.admin.token).then((r) => expect(r.status).toBe(200));

  it('outside the company hours: the out-of-hours text once per conversation, no menu', async () => {
    await schedules(closedNow());
    const rita = chat(e, wa, 'Rita Lee');
    expect(await rita.says('Oi')).toEqual(['Estamos fechados, Rita. Voltamos amanhã.']);
    expect(await rita.says('Alguém?')).toEqual([]);
    expect(await rita.says('1')).toEqual([]);
    const ticket = await rita.ticket();
    expect(ticket).toMatchObject({ status: 'pending', queueId: null });
    const history = await t.api.get(`/messages/${ticket.id}`, e.admin.token);
    expect((history.body.messages as any[]).filter((m) => m.fromMe).map((m) => m.body)).toEqual(['Estamos fechados, Rita. Voltamos amanhã.']);

    // A new conversation is told again.
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, e.admin.token)).status).toBe(200);
    expect(await rita.says('Oi de novo')).toEqual(['Estamos fechados, Rita. Voltamos amanhã.']);
  });

  it('inside the hours, or on a day without times, the bot runs', async () => {
    await schedules(openNow());
    expect(await chat(e, wa, 'Sol').says('Oi')).toEqual(['Escolha:\n\n*[ 1 ]* - Um\n*[ 2 ]* - Dois']);
    await schedules(everyDay('', ''));
    expect(await chat(e, wa, 'Lua').says('Oi')).toHaveLength(1);
  });

  it('reads the hours in the company’s time zone', async () => {
    // Open now in São Paulo: Tokyo, twelve hours ahead, is outside.
    await schedules(openNow('America/Sao_Paulo'));
    expect((await t.api.put(`/companies/${e.companyId}`, { timezone: 'Asia/Tokyo' }, t.superToken)).status).toBe(200);
    expect(await chat(e, wa, 'Kenji').says('Oi')).toEqual(['Estamos fechados, Kenji. Voltamos amanhã.']);
    expect((await t.api.put(`/companies/${e.companyId}`, { timezone: 'America/Sao_Paulo' }, t.superToken)).status).toBe(200);
    expect(await chat(e, wa, 'Paulo').says('Oi')).toHaveLength(1);
  });
});

describe('out of hours, scheduleType queue', () => {
  let f: Tenant;
  let wa: { id: number };
  let closedWithOptions: { id: number };
  beforeAll(async () => {
    f = await createTenant(t, 'BotQueueHours', planId);
    closedWithOptions = await newQueue(f, {
      name: 'Fechada com menu',
      orderQueue: 1,
      outOfHoursMessage: 'Menu fechado, {{firstName}}',
      schedules: closedNow(),
    });
    await newOption(f, { queueId: closedWithOptions.id, title: 'Opção', message: 'm' });
    const closedPlain = await newQueue(f, { name: 'Fechada', orderQueue: 2, outOfHoursMessage: 'Fila fechada', schedules: closedNow() });
    const open = await newQueue(f, { name: 'Aberta', orderQueue: 3, greetingMessage: 'Fila aberta!', outOfHoursMessage: 'x', schedules: openNow() });
    wa = await connection(f, { queueIds: [closedWithOptions.id, closedPlain.id, open.id], greetingMessage: 'Escolha:' });
    await setting(f, 'scheduleType', 'queue');
  });

  it('a chosen queue outside its hours says so once and keeps the ticket waiting in it', async () => {
    const tom = chat(f, wa, 'Tom');
    expect(await tom.says('Oi')).toHaveLength(1);
    expect(await tom.says('1')).toEqual(['Menu fechado, Tom']);
    expect(await tom.ticket()).toMatchObject({ queueId: closedWithOptions.id, status: 'pending' });
    expect(await tom.says('1')).toEqual([]);
  });

  it('a queue without options outside its hours offers the main menu and drops the queue', async () => {
    const ada = chat(f, wa, 'Ada');
    await ada.says('Oi');
    expect(await ada.says('2')).toEqual(['Fila fechada\n\n*[ # ]* - Menu inicial']);
    expect((await ada.ticket()).queueId).toBeNull();
    expect(await ada.says('#')).toEqual(['Escolha:\n\n*[ 1 ]* - Fechada com menu\n*[ 2 ]* - Fechada\n*[ 3 ]* - Aberta']);
    expect(await ada.says('3')).toEqual(['Fila aberta!']);
  });

  it('a queue without options is checked against its hours whatever scheduleType says', async () => {
    await setting(f, 'scheduleType', 'disabled');
    const eva = chat(f, wa, 'Eva');
    await eva.says('Oi');
    expect(await eva.says('2')).toEqual(['Fila fechada\n\n*[ # ]* - Menu inicial']);
    // With the setting off, the queue with options is not checked.
    const ivan = chat(f, wa, 'Ivan');
    await ivan.says('Oi');
    expect(await ivan.says('1')).toEqual(['Olá!\n\n*[ 1 ]* - Opção\n\n*[ # ]* - Menu inicial']);
    await setting(f, 'scheduleType', 'queue');
  });
});

describe('a connection without queues', () => {
  it('greets once per conversation, variables filled', async () => {
    const g = await createTenant(t, 'BotNoQueue', planId);
    const wa = await connection(g, { greetingMessage: 'Oi {{name}}, {{ms}}! Protocolo {{protocol}}.' });
    const bob = chat(g, wa, 'Bob Marley');
    const [greeting] = await bob.says('Olá');
    expect(greeting).toMatch(/^Oi Bob Marley, (Boa madrugada|Bom dia|Boa tarde|Boa noite)! Protocolo \d{14}\.$/);
    expect(await bob.says('Tem alguém?')).toEqual([]);
    const ticket = await bob.ticket();
    expect(ticket).toMatchObject({ queueId: null, status: 'pending' });
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, g.admin.token)).status).toBe(200);
    expect(await bob.says('Voltei')).toHaveLength(1);
  });
});

describe('timeToTransfer sweep', () => {
  it('moves waiting queue-less tickets to transferQueueId once the customer has been silent long enough', async () => {
    const h = await createTenant(t, 'BotTransfer', planId);
    const q1 = await newQueue(h, { name: 'Um', orderQueue: 1 });
    const q2 = await newQueue(h, { name: 'Dois', orderQueue: 2 });
    const target = await newQueue(h, { name: 'Destino' });
    const wa = await connection(h, { queueIds: [q1.id, q2.id], greetingMessage: 'Escolha:', timeToTransfer: 5, transferQueueId: target.id });
    const waiting = chat(h, wa, 'Waiting');
    await waiting.says('Oi');
    const routed = chat(h, wa, 'Routed');
    await routed.says('Oi');
    await routed.says('1');
    const taken = chat(h, wa, 'Taken');
    await taken.says('Oi');
    const takenTicket = await taken.ticket();
    expect((await t.api.put(`/tickets/${takenTicket.id}`, { status: 'open', userId: h.admin.id }, h.admin.token)).status).toBe(200);

    const watcher = await socketOf(h.admin.token);
    watcher.socket.on(`company-${h.companyId}-ticket`, (ev: any) => watcher.events.push(ev));
    const ticket = await waiting.ticket();

    expect(await transferSweep(deps, new Date(Date.now() + 4 * 60_000))).not.toContain(ticket.id);
    expect((await waiting.ticket()).queueId).toBeNull();
    const moved = await transferSweep(deps, new Date(Date.now() + 6 * 60_000));
    expect(moved).toContain(ticket.id);
    expect(moved).not.toContain((await routed.ticket()).id);
    expect(moved).not.toContain(takenTicket.id);
    expect(await waiting.ticket()).toMatchObject({ queueId: target.id, status: 'pending', chatbot: false, queue: { name: 'Destino' } });
    expect(await routed.ticket()).toMatchObject({ queueId: q1.id });
    expect(await taken.ticket()).toMatchObject({ queueId: null, status: 'open' });
    await eventually(() => watcher.events.some((ev) => ev.action === 'update' && ev.ticket.id === ticket.id && ev.ticket.queueId === target.id));
    // Already moved: a second sweep has nothing to do; no message went to the customer.
    expect(await transferSweep(deps, new Date(Date.now() + 60 * 60_000))).not.toContain(ticket.id);
    expect(await waiting.says('ok')).toEqual([]);
  });

  it('counts from the customer’s last message', async () => {
    const h = await createTenant(t, 'BotTransfer2', planId);
    const target = await newQueue(h, { name: 'Destino' });
    const wa = await connection(h, { timeToTransfer: 10, transferQueueId: target.id });
    const late = chat(h, wa, 'Late');
    await late.says('primeira');
    const ticket = await late.ticket();
    // The first message is old; the latest is recent.
    await forSystem(t.app.orm.em)
      .getConnection()
      .execute(`update messages set created_at = now() - interval '30 minutes' where ticket_id = ?`, [ticket.id]);
    await late.says('segunda');
    expect(await transferSweep(deps, new Date(Date.now() + 5 * 60_000))).not.toContain(ticket.id);
    expect(await transferSweep(deps, new Date(Date.now() + 11 * 60_000))).toContain(ticket.id);
  });
});

describe('expiresTicket sweep', () => {
  it('closes open tickets whose last message was ours, with the inactivity message, and tells the clients', async () => {
    const k = await createTenant(t, 'BotExpire', planId);
    const wa = await connection(k, { expiresTicket: 10, expiresInactiveMessage: 'Encerramos por inatividade, {{firstName}}.' });
    const quiet = chat(k, wa, 'Quieto Silva');
    await quiet.says('Oi');
    const ticket = await quiet.ticket();
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: k.admin.id }, k.admin.token)).status).toBe(200);
    expect((await t.api.post(`/messages/${ticket.id}`, { body: 'Posso ajudar?' }, k.admin.token)).status).toBeLessThan(300);
    // Waiting for us: the customer spoke last.
    const talker = chat(k, wa, 'Talker');
    await talker.says('Oi');
    const talkerTicket = await talker.ticket();
    expect((await t.api.put(`/tickets/${talkerTicket.id}`, { status: 'open', userId: k.admin.id }, k.admin.token)).status).toBe(200);
    await talker.says('Ainda estou aqui');
    // Pending tickets never expire.
    const pending = chat(k, wa, 'Pending');
    await pending.says('Oi');

    const watcher = await socketOf(k.admin.token, 'open');
    watcher.socket.on(`company-${k.companyId}-ticket`, (ev: any) => watcher.events.push(ev));
    expect(await expirySweep(deps, new Date(Date.now() + 5 * 60_000))).not.toContain(ticket.id);
    const closed = await expirySweep(deps, new Date(Date.now() + 11 * 60_000));
    expect(closed).toContain(ticket.id);
    expect(closed).not.toContain(talkerTicket.id);
    expect(closed).not.toContain((await pending.ticket()).id);

    expect(await quiet.heard()).toEqual(['Posso ajudar?', 'Encerramos por inatividade, Quieto.']);
    const after = (await t.api.get(`/tickets/${ticket.id}`, k.admin.token)).body;
    expect(after).toMatchObject({ status: 'closed' });
    const history = await t.api.get(`/messages/${ticket.id}`, k.admin.token);
    expect((history.body.messages as any[]).map((m) => m.body)).toContain('Encerramos por inatividade, Quieto.');
    // The open list drops it (the assignee's own room gets the closed version instead).
    await eventually(() =>
      watcher.events.some(
        (ev) => (ev.action === 'delete' && ev.ticketId === ticket.id) || (ev.action === 'update' && ev.ticket.id === ticket.id && ev.ticket.status === 'closed'),
      ),
    );
    expect(await talker.ticket()).toMatchObject({ status: 'open' });
    expect(await pending.ticket()).toMatchObject({ status: 'pending' });
    // The attendance cycle is finished.
    const tracking = await forSystem(t.app.orm.em)
      .getConnection()
      .execute(`select finished_at from ticket_trackings where ticket_id = ? order by id desc limit 1`, [ticket.id]);
    expect(tracking[0].finished_at).not.toBeNull();
    expect(await expirySweep(deps, new Date(Date.now() + 60 * 60_000))).not.toContain(ticket.id);
  });

  it('closes silently without an inactivity message, and never touches connections with expiresTicket 0', async () => {
    const k = await createTenant(t, 'BotExpire2', planId);
    const silent = await connection(k, { expiresTicket: 1 });
    const never = await connection(k, {});
    const ids: number[] = [];
    for (const wa of [silent, never]) {
      const who = chat(k, wa, 'Quiet');
      await who.says('Oi');
      const ticket = await who.ticket();
      await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: k.admin.id }, k.admin.token);
      await t.api.post(`/messages/${ticket.id}`, { body: 'Olá' }, k.admin.token);
      ids.push(ticket.id);
    }
    const closed = await expirySweep(deps, new Date(Date.now() + 24 * 60 * 60_000));
    expect(closed).toContain(ids[0]);
    expect(closed).not.toContain(ids[1]);
    await outboxSettled(t.app, silent.id);
    const sent = (await outbox(t.api, k.admin.token, silent.id)).map((m) => m.body);
    expect(sent).toEqual(['Olá']);
  });
});

describe('the sweeps as jobs', () => {
  it('are stored in the job database to run every minute', async () => {
    for (const name of ['chatbot:transfer-waiting-tickets', 'chatbot:expire-inactive-tickets']) {
      const { jobs } = await t.app.scheduler.agenda.queryJobs({ name });
      expect(jobs.some((j) => j.repeatInterval === '1 minute'), name).toBe(true);
    }
  });
});
