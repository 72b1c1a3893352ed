import { DELETED_MESSAGE_PREVIEW } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays, delivered, outbox, ticketOf } from '../../../testing/conversation.js';
import { connectSocket, createTenant, eventually, joined, nextEvent, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';

/**
 * The heart of the product, end to end through the sandbox phone: a customer writes, a pending ticket
 * appears, an agent accepts and answers, the customer receives it and reads it, the ticket is closed
 * with a completion message and a rating.
 */
let t: TestApp;
let a: Tenant;
let wa: { id: number; number: string };

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Conv');
  wa = await connectSandbox(t.api, a.admin.token);
});
afterAll(() => t?.stop());

const CUSTOMER = '5511988887777';

describe('the sandbox connection', () => {
  it('is connected after the scan, with the phone number', async () => {
    const res = await t.api.get(`/whatsapp/${wa.id}`, a.admin.token);
    expect(res.body).toMatchObject({ status: 'CONNECTED', number: wa.number, qrcode: '' });
  });
});

// Steps of one story: each builds on the ticket the steps before it made and moved.
describe('inbound → pending ticket → accept → reply → ack → close with rating', { shuffle: false }, () => {
  let ticketId: number;
  /** What the customer's phone received, oldest first (other describes' customers write to the same phone). */
  const received = async () => (await outbox(t.api, a.admin.token, wa.id)).filter((m) => m.to === CUSTOMER);

  it('a customer message opens a pending ticket with the message, heard on the admin’s socket', async () => {
    const socket = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(socket, 'joinNotification');
      await joined(socket, 'joinTickets', 'pending');
      const heard = nextEvent<any>(socket, `company-${a.companyId}-appMessage`);
      await customerSays(t.api, a.admin.token, wa.id, { from: CUSTOMER, name: 'Maria Souza', body: 'Olá, preciso de ajuda' });
      const event = await heard;
      expect(event.action).toBe('create');
      expect(event.message).toMatchObject({ body: 'Olá, preciso de ajuda', fromMe: false });
      expect(event.ticket).toMatchObject({ status: 'pending', contact: { name: 'Maria Souza', number: CUSTOMER } });
      ticketId = event.ticket.id;
    } finally {
      socket.close();
    }
    const list = await t.api.get('/tickets?status=pending', a.admin.token);
    const ticket = list.body.tickets.find((x: any) => x.id === ticketId);
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 1, lastMessage: 'Olá, preciso de ajuda', userId: null });
    expect(ticket.whatsapp).toMatchObject({ id: wa.id });
  });

  it('a second message joins the same ticket and counts as unread', async () => {
    await customerSays(t.api, a.admin.token, wa.id, { from: CUSTOMER, body: 'Alguém aí?' });
    const ticket = (await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body;
    expect(ticket).toMatchObject({ unreadMessages: 2, lastMessage: 'Alguém aí?' });
  });

  it('accepting assigns the ticket to the agent who accepts', async () => {
    const res = await t.api.put(`/tickets/${ticketId}`, { status: 'open', userId: a.admin.id }, a.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', userId: a.admin.id, user: { id: a.admin.id }, unreadMessages: 0 });
  });

  it('the reply reaches the customer’s phone and is stored as ours', async () => {
    const socket = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(socket, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      socket.on(`company-${a.companyId}-appMessage`, (event) => heard.push(event));
      const res = await t.api.post(`/messages/${ticketId}`, { body: 'Claro, {{firstName}}! Como posso ajudar?' }, a.admin.token);
      expect(res.status).toBe(200);
      // Accepted at once and shown waiting (a clock, ack 0) until the outbox has sent it.
      expect(res.body).toMatchObject({ fromMe: true, ack: 0, sendError: null, body: 'Claro, Maria! Como posso ajudar?', userId: a.admin.id });
      // The clients hear it twice: waiting, then sent (one tick).
      await eventually(() => expect(heard).toHaveLength(2));
      expect(heard[0]).toMatchObject({ action: 'create', message: { id: res.body.id, ack: 0 } });
      expect(heard[1]).toMatchObject({ action: 'update', message: { id: res.body.id, wid: res.body.wid, ack: 1 } });
      const sent = await delivered(t.api, a.admin.token, wa.id, res.body.wid);
      expect(sent).toMatchObject({ to: CUSTOMER, body: 'Claro, Maria! Como posso ajudar?' });
    } finally {
      socket.close();
    }
  });

  it('the lists hear a reply with its preview and that message’s time together (issue 24: a stale list time)', async () => {
    const socket = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(socket, 'joinTickets', 'open');
      const heard: any[] = [];
      socket.on(`company-${a.companyId}-ticket`, (event) => heard.push(event));
      const accepted = (await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body;
      const res = await t.api.post(`/messages/${ticketId}`, { body: 'Já verifico o horário' }, a.admin.token);
      expect(res.status).toBe(200);
      await eventually(() => expect(heard.some((e) => e.action === 'update' && e.ticket.lastMessage === 'Já verifico o horário')).toBe(true));
      const update = heard.find((e) => e.action === 'update' && e.ticket.lastMessage === 'Já verifico o horário');
      // The row's time is the reply's, from the same event as its preview; the ticket moved on with it.
      expect(update.ticket.lastMessageAt).toBe(res.body.createdAt);
      expect(Date.parse(update.ticket.updatedAt)).toBeGreaterThan(Date.parse(accepted.updatedAt));
      expect((await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body).toMatchObject({ lastMessage: 'Já verifico o horário', lastMessageAt: res.body.createdAt });
    } finally {
      socket.close();
    }
  });

  it('the agent’s name is prefixed when the sign option is on', async () => {
    const res = await t.api.post(`/messages/${ticketId}`, { body: 'Um momento', signMessage: true }, a.admin.token);
    expect(res.body.body).toMatch(/^\*.+:\*\nUm momento$/);
    expect((await delivered(t.api, a.admin.token, wa.id, res.body.wid)).body).toBe(res.body.body);
  });

  it('a receipt from the phone moves the ack forward, never back', async () => {
    const wid = (await received()).at(-1)!.id;
    const socket = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(socket, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      socket.on(`company-${a.companyId}-appMessage`, (event) => heard.push(event));
      await t.api.post(`/sandbox/${wa.id}/ack`, { id: wid, ack: 4 }, a.admin.token);
      await eventually(() => expect(heard.some((e) => e.message.wid === wid && e.message.ack === 4)).toBe(true));
    } finally {
      socket.close();
    }
    await t.api.post(`/sandbox/${wa.id}/ack`, { id: wid, ack: 2 }, a.admin.token);
    const messages = (await t.api.get(`/messages/${ticketId}`, a.admin.token)).body.messages;
    expect(messages.find((m: any) => m.wid === wid).ack).toBe(4);
  });

  it('GET /messages lists the conversation oldest to newest and marks the ticket read', async () => {
    await customerSays(t.api, a.admin.token, wa.id, { from: CUSTOMER, body: 'Quero trocar um produto' });
    expect((await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body.unreadMessages).toBe(1);
    const res = await t.api.get(`/messages/${ticketId}`, a.admin.token);
    expect(res.status).toBe(200);
    const bodies = res.body.messages.map((m: any) => m.body);
    expect(bodies[0]).toBe('Olá, preciso de ajuda');
    expect(bodies.at(-1)).toBe('Quero trocar um produto');
    expect(res.body.hasMore).toBe(false);
    expect((await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body.unreadMessages).toBe(0);
  });

  it('a reply can quote the customer’s message', async () => {
    const messages = (await t.api.get(`/messages/${ticketId}`, a.admin.token)).body.messages;
    const theirs = messages.find((m: any) => m.body === 'Quero trocar um produto');
    const res = await t.api.post(`/messages/${ticketId}`, { body: 'Qual produto?', quotedMsg: { id: theirs.id } }, a.admin.token);
    expect(res.body.quotedMsg).toMatchObject({ id: theirs.id, body: 'Quero trocar um produto' });
    expect(await delivered(t.api, a.admin.token, wa.id, res.body.wid)).toMatchObject({ body: 'Qual produto?', quotedId: theirs.wid });
  });

  it('an own message can be deleted for everyone; a customer’s cannot', async () => {
    const mine = await t.api.post(`/messages/${ticketId}`, { body: 'mensagem errada' }, a.admin.token);
    await delivered(t.api, a.admin.token, wa.id, mine.body.wid);
    const del = await t.api.del(`/messages/${mine.body.id}`, a.admin.token);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ isDeleted: true });
    expect((await outbox(t.api, a.admin.token, wa.id)).find((m) => m.id === mine.body.wid)?.deleted).toBe(true);
    const theirs = (await t.api.get(`/messages/${ticketId}`, a.admin.token)).body.messages.find((m: any) => !m.fromMe);
    expect(await t.api.del(`/messages/${theirs.id}`, a.admin.token)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
  });

  it('deleting our latest message turns the ticket’s preview into the deleted marker, heard by the lists', async () => {
    const older = await t.api.post(`/messages/${ticketId}`, { body: 'primeira versão' }, a.admin.token);
    const latest = await t.api.post(`/messages/${ticketId}`, { body: 'texto que some' }, a.admin.token);
    await delivered(t.api, a.admin.token, wa.id, latest.body.wid);
    const before = (await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body;
    expect(before.lastMessage).toBe('texto que some');
    // An older message is not what the preview shows: it stays.
    expect((await t.api.del(`/messages/${older.body.id}`, a.admin.token)).status).toBe(200);
    expect((await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body.lastMessage).toBe('texto que some');

    const socket = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(socket, 'joinTickets', 'open');
      const heard: any[] = [];
      socket.on(`company-${a.companyId}-ticket`, (event) => heard.push(event));
      expect((await t.api.del(`/messages/${latest.body.id}`, a.admin.token)).status).toBe(200);
      await eventually(() =>
        expect(heard).toContainEqual(expect.objectContaining({ action: 'update', ticket: expect.objectContaining({ id: ticketId, lastMessage: DELETED_MESSAGE_PREVIEW }) })),
      );
    } finally {
      socket.close();
    }
    // A reload shows the marker too, and the ticket keeps its place in the list.
    const after = (await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body;
    expect(after).toMatchObject({ lastMessage: DELETED_MESSAGE_PREVIEW, updatedAt: before.updatedAt });
    const listed = (await t.api.get('/tickets?status=open', a.admin.token)).body.tickets.find((x: any) => x.id === ticketId);
    expect(listed.lastMessage).toBe(DELETED_MESSAGE_PREVIEW);
  });

  it('closing with ratings enabled asks for a rating; the answer is stored and the completion message follows', async () => {
    expect((await t.api.put('/settings/userRating', { value: 'enabled' }, a.admin.token)).status).toBe(200);
    await t.api.put(`/whatsapp/${wa.id}`, { complationMessage: 'Atendimento finalizado, {{name}}.', ratingMessage: 'Sua opinião importa!' }, a.admin.token);
    const close = await t.api.put(`/tickets/${ticketId}`, { status: 'closed' }, a.admin.token);
    expect(close.body.status).toBe('closed');
    // The outbox sends after the request answers: wait for the prompt on the phone.
    const prompt = await eventually(async () => {
      const last = (await received()).at(-1)!;
      expect(last.body).toMatch(/^Sua opinião importa!\n\n/);
      return last;
    });
    expect(prompt.body).toContain('*1*');

    await customerSays(t.api, a.admin.token, wa.id, { from: CUSTOMER, body: 'nota 3!' });
    await eventually(async () => {
      expect((await received()).at(-1)!.body).toBe('Atendimento finalizado, Maria Souza.');
    });
    const rating = await t.app.orm.em.fork().getConnection().execute('select rate, user_id from user_ratings where ticket_id = ?', [ticketId]);
    expect(rating).toEqual([{ rate: 3, user_id: a.admin.id }]);
    // The answer is kept in the closed ticket; no new ticket was opened for it.
    const messages = (await t.api.get(`/messages/${ticketId}`, a.admin.token)).body.messages;
    expect(messages.some((m: any) => m.body === 'nota 3!')).toBe(true);
    expect((await t.api.get(`/tickets?status=pending&searchParam=${CUSTOMER}`, a.admin.token)).body.tickets).toHaveLength(0);
    await t.api.put('/settings/userRating', { value: 'disabled' }, a.admin.token);
  });

  it('sending on a closed ticket is refused', async () => {
    expect(await t.api.post(`/messages/${ticketId}`, { body: 'oi' }, a.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_TICKET_CLOSED' },
    });
  });

  it('the customer’s next message opens a new ticket whose history includes the old one', async () => {
    await customerSays(t.api, a.admin.token, wa.id, { from: CUSTOMER, body: 'Voltei' });
    const fresh = await ticketOf(t.api, a.admin.token, CUSTOMER, 'pending');
    expect(fresh.id).not.toBe(ticketId);
    const history = (await t.api.get(`/messages/${fresh.id}`, a.admin.token)).body.messages.map((m: any) => m.ticketId);
    expect(new Set(history)).toEqual(new Set([ticketId, fresh.id]));
  });
});

describe('ticket transitions', () => {
  // Each test has its own customer, whose ticket it brings to the state its transition starts from.
  const pendingTicket = async (number: string, name: string) => {
    await customerSays(t.api, a.admin.token, wa.id, { from: number, name, body: 'oi' });
    const ticket = await ticketOf(t.api, a.admin.token, number, 'pending');
    return { id: ticket.id as number, contactId: ticket.contactId as number };
  };
  const accepted = async (number: string, name: string) => {
    const ticket = await pendingTicket(number, name);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token)).body).toMatchObject({ status: 'open', userId: a.admin.id });
    return ticket;
  };
  /** The last message the customer's phone received, once it matches (the outbox sends after the request answers). */
  const lastTo = (number: string, body: RegExp) =>
    eventually(async () => {
      const last = (await outbox(t.api, a.admin.token, wa.id)).filter((m) => m.to === number).at(-1);
      expect(last?.body).toMatch(body);
      return last!;
    });

  it('accept sends the greeting when sendGreetingAccepted is enabled', async () => {
    const number = '5511977700001';
    const { id } = await pendingTicket(number, 'João');
    await t.api.put('/settings/sendGreetingAccepted', { value: 'enabled' }, a.admin.token);
    await t.api.put(`/tickets/${id}`, { status: 'open' }, a.agent.token).then((r) => expect(r.status).toBe(403));
    const res = await t.api.put(`/tickets/${id}`, { status: 'open' }, a.admin.token);
    expect(res.body).toMatchObject({ status: 'open', userId: a.admin.id });
    await lastTo(number, /\*João\*, meu nome é \*/);
    await t.api.put('/settings/sendGreetingAccepted', { value: 'disabled' }, a.admin.token);
  });

  it('return puts it back in the waiting line with no user', async () => {
    const { id } = await accepted('5511977700002', 'Joana');
    const res = await t.api.put(`/tickets/${id}`, { status: 'pending' }, a.admin.token);
    expect(res.body).toMatchObject({ status: 'pending', userId: null });
  });

  it('transfer to another agent opens it for them and tells the customer when enabled', async () => {
    const number = '5511977700003';
    const { id } = await pendingTicket(number, 'Jorge');
    await t.api.put('/settings/sendMsgTransfTicket', { value: 'enabled' }, a.admin.token);
    const res = await t.api.put(`/tickets/${id}`, { userId: a.agent.id }, a.admin.token);
    expect(res.body).toMatchObject({ status: 'open', userId: a.agent.id });
    await lastTo(number, /transferido para o atendente \*Agent/);
    await t.api.put('/settings/sendMsgTransfTicket', { value: 'disabled' }, a.admin.token);
    // The assignee sees it; it is theirs now.
    expect((await t.api.get(`/tickets/${id}`, a.agent.token)).status).toBe(200);
  });

  it('close, then reopen assigns it to whoever reopens it', async () => {
    const { id } = await pendingTicket('5511977700004', 'Júlia');
    expect((await t.api.put(`/tickets/${id}`, { userId: a.agent.id }, a.admin.token)).body).toMatchObject({ status: 'open', userId: a.agent.id });
    expect((await t.api.put(`/tickets/${id}`, { status: 'closed' }, a.agent.token)).body).toMatchObject({ status: 'closed' });
    const res = await t.api.put(`/tickets/${id}`, { status: 'open' }, a.admin.token);
    expect(res.body).toMatchObject({ status: 'open', userId: a.admin.id });
  });

  it('POST /tickets for a contact with an open ticket names that ticket', async () => {
    const { id, contactId } = await accepted('5511977700005', 'Jaime');
    const res = await t.api.post('/tickets', { contactId, whatsappId: wa.id }, a.admin.token);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticket: { id, user: { id: a.admin.id } } });
  });

  it('reopening a closed ticket while the contact has another open one is refused', async () => {
    const { id, contactId } = await accepted('5511977700006', 'Jussara');
    await t.api.put(`/tickets/${id}`, { status: 'closed' }, a.admin.token);
    const fresh = await t.api.post('/tickets', { contactId, whatsappId: wa.id }, a.admin.token);
    expect(fresh.status).toBe(201);
    expect(fresh.body).toMatchObject({ status: 'open', userId: a.admin.id });
    expect(await t.api.put(`/tickets/${id}`, { status: 'open' }, a.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_OTHER_OPEN_TICKET', ticketId: fresh.body.id },
    });
  });

  it('only admins delete tickets', async () => {
    const { id } = await accepted('5511977700007', 'Jonas');
    expect((await t.api.del(`/tickets/${id}`, a.agent.token)).status).toBe(403);
    expect((await t.api.del(`/tickets/${id}`, a.admin.token)).status).toBe(200);
    expect((await t.api.get(`/tickets/${id}`, a.admin.token)).status).toBe(404);
  });
});

describe('who may act on a conversation', () => {
  // Two agents of one queue: the one handling a ticket answers it; the other may read it, not act on it.
  // Each test has its own customer's ticket, placed with the agent.
  let queueId: number;
  let colleague: { id: number; token: string };

  beforeAll(async () => {
    queueId = (await t.api.post('/queue', { name: 'Plantão', color: '#123456', greetingMessage: '' }, a.admin.token)).body.id;
    expect((await t.api.put(`/users/${a.agent.id}`, { queueIds: [queueId] }, a.admin.token)).status).toBe(200);
    const email = `colleague-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const created = await t.api.post('/users', { name: 'Colleague', email, password: a.agent.password, profile: 'user', queueIds: [queueId] }, a.admin.token);
    expect(created.status).toBe(201);
    const login = await t.api.login(email, a.agent.password);
    colleague = { id: login.user.id, token: login.token };
  });

  const agentsTicket = async (number: string, name: string) => {
    await customerSays(t.api, a.admin.token, wa.id, { from: number, name, body: 'bom dia' });
    const id = (await ticketOf(t.api, a.admin.token, number)).id as number;
    const placed = await t.api.put(`/tickets/${id}`, { queueId, userId: a.agent.id }, a.admin.token);
    expect(placed.body).toMatchObject({ status: 'open', queueId, userId: a.agent.id });
    return id;
  };

  it('a colleague of the queue reads it without clearing the agent’s unread count; the agent’s reading does', async () => {
    const number = '5511966665551';
    const id = await agentsTicket(number, 'Bruna');
    await customerSays(t.api, a.admin.token, wa.id, { from: number, body: 'ainda preciso de ajuda' });
    expect((await t.api.get(`/tickets/${id}`, a.agent.token)).body.unreadMessages).toBe(1);
    const read = await t.api.get(`/messages/${id}`, colleague.token);
    expect(read.status).toBe(200);
    expect(read.body.messages.map((m: any) => m.body)).toContain('ainda preciso de ajuda');
    // An admin's look leaves it unread too.
    expect((await t.api.get(`/messages/${id}`, a.admin.token)).status).toBe(200);
    expect((await t.api.get(`/tickets/${id}`, a.agent.token)).body.unreadMessages).toBe(1);
    expect((await t.api.get(`/messages/${id}`, a.agent.token)).status).toBe(200);
    expect((await t.api.get(`/tickets/${id}`, a.agent.token)).body.unreadMessages).toBe(0);
  });

  it('the colleague can neither reply, close, return, transfer nor take it; nothing reaches the customer', async () => {
    const number = '5511966665552';
    const id = await agentsTicket(number, 'Bento');
    const toCustomer = async () => (await outbox(t.api, a.admin.token, wa.id)).filter((m) => m.to === number);
    const before = (await toCustomer()).length;
    const refused = { status: 403, body: { error: 'ERR_TICKET_OTHER_AGENT' } };
    expect(await t.api.post(`/messages/${id}`, { body: 'posso ajudar?' }, colleague.token)).toMatchObject(refused);
    expect(await t.api.put(`/tickets/${id}`, { status: 'closed' }, colleague.token)).toMatchObject(refused);
    expect(await t.api.put(`/tickets/${id}`, { status: 'pending' }, colleague.token)).toMatchObject(refused);
    expect(await t.api.put(`/tickets/${id}`, { userId: colleague.id }, colleague.token)).toMatchObject(refused);
    expect(await t.api.put(`/tickets/${id}`, { status: 'open' }, colleague.token)).toMatchObject(refused);
    expect((await t.api.get(`/tickets/${id}`, a.admin.token)).body).toMatchObject({ status: 'open', userId: a.agent.id, queueId });
    const history = (await t.api.get(`/messages/${id}`, a.admin.token)).body.messages.map((m: any) => m.body);
    expect(history).not.toContain('posso ajudar?');
    expect(await toCustomer()).toHaveLength(before);
  });

  it('nor delete or resend the agent’s messages, which the agent and an admin may', async () => {
    const id = await agentsTicket('5511966665553', 'Beatriz');
    const reply = await t.api.post(`/messages/${id}`, { body: 'estou verificando' }, a.agent.token);
    expect(reply.status).toBe(200);
    await delivered(t.api, a.admin.token, wa.id, reply.body.wid);
    expect(await t.api.del(`/messages/${reply.body.id}`, colleague.token)).toMatchObject({ status: 403, body: { error: 'ERR_TICKET_OTHER_AGENT' } });
    expect(await t.api.post(`/messages/${reply.body.id}/resend`, {}, colleague.token)).toMatchObject({ status: 403, body: { error: 'ERR_TICKET_OTHER_AGENT' } });
    expect((await t.api.post(`/messages/${id}`, { body: 'supervisão: tudo certo' }, a.admin.token)).status).toBe(200);
    expect((await t.api.del(`/messages/${reply.body.id}`, a.agent.token)).status).toBe(200);
  });

  it('once the agent returns it to the waiting line, the colleague may accept it', async () => {
    const id = await agentsTicket('5511966665554', 'Benício');
    expect((await t.api.put(`/tickets/${id}`, { status: 'pending' }, a.agent.token)).body).toMatchObject({ status: 'pending', userId: null });
    const taken = await t.api.put(`/tickets/${id}`, { status: 'open' }, colleague.token);
    expect(taken.body).toMatchObject({ status: 'open', userId: colleague.id });
    // And now the first agent is the colleague.
    expect(await t.api.post(`/messages/${id}`, { body: 'deixa comigo' }, a.agent.token)).toMatchObject({ status: 403, body: { error: 'ERR_TICKET_OTHER_AGENT' } });
  });
});

describe('deleting a ticket', () => {
  it('removes the media files of its messages, and only those', async () => {
    const png = { mimetype: 'image/png', filename: 'foto.png', base64: Buffer.from('\x89PNG\r\n\x1a\nfoto').toString('base64') };
    const fileOf = async (from: string) => {
      await customerSays(t.api, a.admin.token, wa.id, { from, body: 'foto', media: png });
      const ticket = await ticketOf(t.api, a.admin.token, from);
      const [message] = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
      const [row] = await t.app.orm.em.fork().getConnection().execute('select media_url from messages where id = ?', [message.id]);
      return { ticket, file: row.media_url as string };
    };
    const stored = (file: string) => t.app.media.exists(a.companyId, file);
    const doomed = await fileOf('5511955554441');
    const kept = await fileOf('5511955554442');
    expect((await stored(doomed.file)) && (await stored(kept.file))).toBe(true);
    expect((await t.api.del(`/tickets/${doomed.ticket.id}`, a.admin.token)).status).toBe(200);
    expect(await stored(doomed.file)).toBe(false);
    expect(await stored(kept.file)).toBe(true);
  });
});

describe('idempotent ingestion', () => {
  it('the same WhatsApp message delivered twice is stored once', async () => {
    const from = '5511955554443';
    await customerSays(t.api, a.admin.token, wa.id, { from, body: 'uma vez', id: 'DUP-1' });
    await customerSays(t.api, a.admin.token, wa.id, { from, body: 'uma vez', id: 'DUP-1' });
    const ticket = await ticketOf(t.api, a.admin.token, from);
    const messages = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    expect(messages.filter((m: any) => m.wid === 'DUP-1')).toHaveLength(1);
  });

  it('concurrent first messages from one contact open one ticket', async () => {
    const from = '5511955554444';
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => customerSays(t.api, a.admin.token, wa.id, { from, body: `msg ${i}`, id: `RACE-${i}` })),
    );
    const res = await t.api.get(`/tickets?showAll=true&searchParam=${from}`, a.admin.token);
    expect(res.body.tickets).toHaveLength(1);
    expect(res.body.tickets[0].unreadMessages).toBe(8);
    const contacts = await t.app.orm.em.fork().getConnection().execute('select count(*)::int as n from contacts where number = ?', [from]);
    expect(contacts[0].n).toBe(1);
  });
});

describe('media', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  it('an inbound image is stored and served only through its signed URL', async () => {
    const from = '5511944443333';
    await customerSays(t.api, a.admin.token, wa.id, { from, body: 'foto', media: { mimetype: 'image/png', filename: 'foto.png', base64: png.toString('base64') } });
    const ticket = await ticketOf(t.api, a.admin.token, from);
    const message = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages[0];
    expect(message).toMatchObject({ mediaType: 'image', body: 'foto', mediaName: 'foto.png' });
    expect(message.mediaUrl).toMatch(/^\/media\/\d+\/[\w-]+\.png\?expires=\d+&signature=/);
    const file = await fetch(t.app.url + message.mediaUrl);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
    const unsigned = await fetch(t.app.url + message.mediaUrl.split('?')[0]);
    expect(unsigned.status).toBe(400);
    const forged = await fetch(t.app.url + message.mediaUrl.replace(/signature=[^&]+/, 'signature=AAAA'));
    expect(forged.status).toBe(403);
    const traversal = await fetch(`${t.app.url}/media/${a.companyId}/..%2F..%2Fsecrets%2Fjwt-secret?expires=9999999999&signature=x`);
    expect([400, 403, 404]).toContain(traversal.status);
  });

  it('an agent sends files by multipart, in order, each with its caption', async () => {
    const from = '5511933332222';
    await customerSays(t.api, a.admin.token, wa.id, { from, body: 'me manda o boleto' });
    const ticket = await ticketOf(t.api, a.admin.token, from);
    await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token);
    const form = new FormData();
    form.append('medias', new Blob([png], { type: 'image/png' }), 'a.png');
    form.append('medias', new Blob([Buffer.from('%PDF-1.4 test')], { type: 'application/pdf' }), 'boleto.pdf');
    form.append('body', 'primeira');
    form.append('body', 'segunda');
    const res = await fetch(`${t.app.url}/messages/${ticket.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.admin.token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const queued = (await res.json()) as { wid: string }[];
    const sent = [await delivered(t.api, a.admin.token, wa.id, queued[0].wid), await delivered(t.api, a.admin.token, wa.id, queued[1].wid)];
    const all = await outbox(t.api, a.admin.token, wa.id);
    // In order on the phone too.
    expect(all.findIndex((m) => m.id === queued[0].wid)).toBeLessThan(all.findIndex((m) => m.id === queued[1].wid));
    expect(sent).toMatchObject([
      { mediaType: 'image', body: 'primeira', mediaName: 'a.png' },
      { mediaType: 'application', body: 'segunda', mediaName: 'boleto.pdf' },
    ]);
  });

  it('an oversized upload is refused with 413', async () => {
    const small = await startTestApp({ BODY_LIMIT_KB: '16' });
    try {
      const tenant = await createTenant(small, 'Big');
      const conn = await connectSandbox(small.api, tenant.admin.token);
      const res = await small.api.post(`/sandbox/${conn.id}/messages`, { from: '5511922221111', media: { mimetype: 'image/png', base64: 'A'.repeat(40000) } }, tenant.admin.token);
      expect(res).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    } finally {
      await small.stop();
    }
  });
});

describe('groups', () => {
  it('are ignored while CheckMsgIsGroup is enabled (the default)', async () => {
    const pipeline = await import('../../pipeline/inbound.js');
    const { forSystem } = await import('../../db/tenant.js');
    const deps = { systemEm: () => forSystem(t.app.orm.em), logger: t.app.logger, media: t.app.media, events: t.app.events, channels: t.app.channels, steps: [] };
    const group = { number: '120363000000000001', lid: null, isGroup: true, name: 'Clientes VIP' };
    const participant = { number: '5511911110000', lid: null, name: 'Pedro' };
    const message = (id: string) => ({ id, fromMe: false, chat: group, participant, body: 'oi grupo', mediaType: 'chat' as const, timestamp: new Date() });
    expect(await pipeline.acceptInbound(deps, { id: wa.id, companyId: a.companyId }, message('G-1'))).toBe('ignored');
    await t.api.put('/settings/CheckMsgIsGroup', { value: 'disabled' }, a.admin.token);
    expect(await pipeline.acceptInbound(deps, { id: wa.id, companyId: a.companyId }, message('G-2'))).toBe('stored');
    const ticket = await ticketOf(t.api, a.admin.token, group.number);
    expect(ticket).toMatchObject({ isGroup: true, contact: { name: 'Clientes VIP', isGroup: true } });
    const [msg] = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    expect(msg.contact).toMatchObject({ name: 'Pedro', number: '5511911110000' });
    await t.api.put('/settings/CheckMsgIsGroup', { value: 'enabled' }, a.admin.token);
  });
});
