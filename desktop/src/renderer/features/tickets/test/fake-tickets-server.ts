import { fakeServer, planReply, type FakeCall } from '../../../test/render';
import type { ContactView } from '@atrium/shared';
import type {
  Connection,
  ContactDetail,
  Message,
  QuickMessage,
  Queue,
  TagRef,
  Ticket,
  TicketNote,
  UserSummary,
} from '../api/types';

/** The session user of these tests (signIn's default id). */
export const ME = { id: 7, name: 'Ana Admin' };

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

/** A contact as the server's presenter shows it (shared ContactView), with its extra information. */
export const makeContact = (id: number, overrides: Partial<ContactDetail> = {}): ContactDetail => ({
  id,
  name: `Contact ${id}`,
  number: `55119876500${String(id).padStart(2, '0')}`,
  email: '',
  profilePicUrl: '',
  isGroup: false,
  uuid: `contact-uuid-${id}`,
  companyId: 1,
  createdAt: at(1000),
  updatedAt: at(1000),
  extraInfo: [],
  ...overrides,
});

/** The contact as a ticket's view carries it (no extra information). */
const viewOf = (contact: ContactView): ContactView => {
  const { extraInfo: _extra, ...view } = contact as ContactDetail;
  return view;
};

/** A ticket as the server's ticketView presents it (shared TicketView). */
export const makeTicket = (id: number, overrides: Partial<Ticket> = {}): Ticket => {
  const contact = overrides.contact ?? makeContact(10 + id);
  return {
    id,
    uuid: `uuid-${id}`,
    status: 'open',
    contactId: contact?.id ?? 10 + id,
    contact: contact ? viewOf(contact) : null,
    userId: ME.id,
    user: { ...ME },
    queueId: 2,
    queue: { id: 2, name: 'Sales', color: '#2e7d32' },
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Main phone', status: 'CONNECTED' },
    isGroup: false,
    chatbot: false,
    lastMessage: 'Hello',
    lastMessageAt: at(2),
    unreadMessages: 0,
    useIntegration: false,
    integrationId: null,
    promptId: null,
    companyId: 1,
    tags: [],
    createdAt: at(120),
    updatedAt: at(1),
    ...overrides,
  };
};

/** A message as the server's messageView presents it (shared MessageView; oldest first by id). */
export const makeMessage = (id: number, ticketId: number | null, overrides: Partial<Message> = {}): Message => ({
  id,
  wid: `wid-${id}`,
  ticketId,
  body: `Message ${id}`,
  fromMe: false,
  read: true,
  ack: 0,
  mediaType: 'chat',
  mediaUrl: null,
  mediaName: null,
  mediaStatus: null,
  isDeleted: false,
  isEdited: false,
  isSystem: false,
  sendError: null,
  participant: null,
  contactId: null,
  contact: null,
  userId: null,
  user: null,
  quotedMsgId: null,
  quotedMsg: null,
  createdAt: at(100 - id / 10),
  updatedAt: at(100 - id / 10),
  ...overrides,
});

export interface TicketsServerState {
  tickets: Ticket[];
  messages: Message[];
  contacts: ContactDetail[];
  notes: TicketNote[];
  tags: TagRef[];
  queues: Queue[];
  connections: Connection[];
  users: UserSummary[];
  quickMessages: QuickMessage[];
  /** Answers a call (`'POST /tickets'`, `'POST /tags/sync'`...) with this status and body instead. */
  fail: Record<string, { status: number; data: unknown }>;
  /** How many times GET /messages/{id} read each ticket's newest page (the server marks it read then). */
  newestPageReads: Record<number, number>;
}

const PAGE = 20;

/**
 * An in-memory server speaking the tickets contract (spec 01 section 7) with the server's presenters'
 * shapes: tickets, messages (20 a page, newest page first, the contact's earlier tickets included),
 * contacts, ticket notes, tags, queues, connections, users and quick messages.
 */
export const ticketsServer = (initial: Partial<TicketsServerState> = {}) => {
  const state: TicketsServerState = {
    tickets: [],
    messages: [],
    contacts: [],
    notes: [],
    tags: [],
    queues: [{ id: 2, name: 'Sales', color: '#2e7d32' }],
    connections: [{ id: 1, name: 'Main phone', status: 'CONNECTED', isDefault: true }],
    users: [{ ...ME }],
    quickMessages: [],
    fail: {},
    newestPageReads: {},
    ...initial,
  };
  let nextId = 1000;
  const ticketById = (id: number) => state.tickets.find((t) => t.id === id);
  const present = (m: Message): Message => ({
    ...m,
    quotedMsg: m.quotedMsgId ? (state.messages.find((q) => q.id === m.quotedMsgId) ?? null) : null,
  });

  const calls = fakeServer((call: FakeCall) => {
    const { method, url } = call;
    const body = (call.data ?? {}) as Record<string, unknown>;
    const params = (call.params ?? {}) as Record<string, unknown>;
    const failure = state.fail[`${method} ${url}`] ?? state.fail[`${method} ${url.replace(/\/\d+$/, '/:id')}`];
    if (failure) return failure;
    if (url.startsWith('/companies/listPlan/')) return planReply();

    if (method === 'GET' && url === '/tickets') {
      if (params.withUnreadMessages) return { data: { tickets: state.tickets.filter((t) => t.unreadMessages > 0), hasMore: false } };
      const list = state.tickets.filter((t) => !params.status || t.status === params.status);
      return { data: { tickets: list, hasMore: false, count: list.length } };
    }
    let m = /^\/tickets\/u\/(.+)$/.exec(url);
    if (m && method === 'GET') {
      const ticket = state.tickets.find((t) => t.uuid === m![1]);
      return ticket ? { data: ticket } : { status: 404, data: { error: 'ERR_NO_TICKET_FOUND' } };
    }
    // The activity trail: none in these tests (the e2e tests read the real one).
    if (method === 'GET' && /^\/tickets\/\d+\/log$/.test(url)) return { data: { logs: [] } };
    m = /^\/tickets\/(\d+)$/.exec(url);
    if (m) {
      const ticket = ticketById(Number(m[1]));
      if (!ticket) return { status: 404, data: { error: 'ERR_NO_TICKET_FOUND' } };
      if (method === 'PUT') {
        Object.assign(ticket, body);
        if ('userId' in body) ticket.user = body.userId ? (state.users.find((u) => u.id === body.userId) ?? null) : null;
        if ('queueId' in body) ticket.queue = state.queues.find((q) => q.id === body.queueId) ?? null;
        if ('whatsappId' in body) ticket.whatsapp = (state.connections.find((c) => c.id === body.whatsappId) as Ticket['whatsapp']) ?? null;
        return { data: ticket };
      }
      if (method === 'DELETE') {
        state.tickets = state.tickets.filter((t) => t !== ticket);
        return { data: { message: 'ticket deleted' } };
      }
    }
    if (method === 'POST' && url === '/tickets') {
      const contact = state.contacts.find((c) => c.id === body.contactId);
      const ticket = makeTicket(nextId++, {
        contact: contact ?? null,
        contactId: Number(body.contactId),
        status: 'open',
        queueId: (body.queueId as number | null) ?? null,
        queue: state.queues.find((q) => q.id === body.queueId) ?? null,
        whatsappId: (body.whatsappId as number | null) ?? null,
      });
      state.tickets.push(ticket);
      return { status: 201, data: ticket };
    }

    m = /^\/messages\/(\d+)$/.exec(url);
    if (m && method === 'GET') {
      const ticket = ticketById(Number(m[1]));
      if (!ticket) return { status: 404, data: { error: 'ERR_NO_TICKET_FOUND' } };
      const pageNumber = Number(params.pageNumber ?? 1);
      const history = state.messages
        .filter((msg) => {
          const of = msg.ticketId === null ? undefined : ticketById(msg.ticketId);
          return of && of.contactId === ticket.contactId && of.whatsappId === ticket.whatsappId;
        })
        .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
      const end = history.length - (pageNumber - 1) * PAGE;
      const page = history.slice(Math.max(0, end - PAGE), Math.max(0, end));
      if (pageNumber === 1) {
        state.newestPageReads[ticket.id] = (state.newestPageReads[ticket.id] ?? 0) + 1;
        ticket.unreadMessages = 0;
      }
      return { data: { messages: page.map(present), ticket: { id: ticket.id }, hasMore: end - PAGE > 0 } };
    }
    if (m && method === 'POST') {
      const ticket = ticketById(Number(m[1]));
      if (!ticket) return { status: 404, data: { error: 'ERR_NO_TICKET_FOUND' } };
      if (ticket.status === 'closed') return { status: 400, data: { error: 'ERR_TICKET_CLOSED' } };
      if (call.data instanceof FormData) {
        const form = call.data;
        const captions = form.getAll('body').map(String);
        const quotedMsgId = form.get('quotedMsgId') ? Number(form.get('quotedMsgId')) : null;
        const sent = form.getAll('medias').map((file, i) => {
          const f = file as File;
          const family = f.type.split('/')[0];
          const message = makeMessage(nextId++, ticket.id, {
            fromMe: true,
            ack: 1,
            body: captions[i] ?? '',
            mediaType: ['image', 'audio', 'video'].includes(family) ? family : 'application',
            mediaUrl: `/media/3/${f.name}?expires=1&signature=x`,
            mediaName: f.name,
            quotedMsgId,
            createdAt: new Date().toISOString(),
          });
          state.messages.push(message);
          return present(message);
        });
        return { data: sent };
      }
      const quoted = (body.quotedMsg as { id: number } | null | undefined)?.id ?? null;
      const message = makeMessage(nextId++, ticket.id, {
        fromMe: true,
        ack: 1,
        body: String(body.body),
        quotedMsgId: quoted,
        user: { ...ME },
        createdAt: new Date().toISOString(),
      });
      state.messages.push(message);
      return { data: present(message) };
    }
    const refetch = /^\/messages\/(\d+)\/media$/.exec(url);
    if (refetch && method === 'POST') {
      const message = state.messages.find((msg) => msg.id === Number(refetch[1]));
      if (!message) return { status: 404, data: { error: 'ERR_NO_MESSAGE_FOUND' } };
      if (message.mediaStatus !== 'failed') return { status: 409, data: { error: 'ERR_MEDIA_NOT_FAILED' } };
      Object.assign(message, { mediaStatus: 'pending' });
      return { data: present(message) };
    }
    const resend = /^\/messages\/(\d+)\/resend$/.exec(url);
    if (resend && method === 'POST') {
      const message = state.messages.find((msg) => msg.id === Number(resend[1]));
      if (!message) return { status: 404, data: { error: 'ERR_NO_MESSAGE_FOUND' } };
      if (!message.sendError) return { status: 409, data: { error: 'ERR_CONFLICT' } };
      Object.assign(message, { sendError: null, ack: 0 });
      return { data: present(message) };
    }
    if (m && method === 'DELETE') {
      const message = state.messages.find((msg) => msg.id === Number(m![1]));
      if (!message) return { status: 404, data: { error: 'ERR_NO_MESSAGE_FOUND' } };
      if (!message.fromMe) return { status: 403, data: { error: 'ERR_NO_PERMISSION' } };
      Object.assign(message, { isDeleted: true, body: '', mediaUrl: null });
      return { data: present(message) };
    }

    if (method === 'GET' && url === '/tags/list') return { data: state.tags };
    if (method === 'POST' && url === '/tags/sync') {
      const ticket = ticketById(Number(body.ticketId));
      if (!ticket) return { status: 404, data: { error: 'ERR_NO_TICKET_FOUND' } };
      // As the server does: a tag given by name only is created (or found, whatever its case).
      const ids = (body.tags as { id?: number; name?: string }[]).map((t) => {
        if (t.id !== undefined) return t.id;
        const name = String(t.name);
        const existing = state.tags.find((tag) => tag.name.toLowerCase() === name.toLowerCase());
        if (existing) return existing.id;
        const created = { id: Math.max(0, ...state.tags.map((tag) => tag.id)) + 1, name, color: '#A4CCCC' };
        state.tags.push(created);
        return created.id;
      });
      ticket.tags = state.tags.filter((t) => ids.includes(t.id));
      return { data: ticket };
    }
    if (method === 'GET' && url === '/queue') return { data: state.queues };
    if (method === 'GET' && (url === '/whatsapp' || url === '/whatsapp/')) return { data: state.connections };
    if (method === 'GET' && url === '/users/list') return { data: state.users };
    if (method === 'GET' && url === '/quick-messages/list') return { data: state.quickMessages };

    if (method === 'GET' && url === '/contacts') {
      const term = String(params.searchParam ?? '').toLowerCase();
      const found = state.contacts.filter((c) => c.name.toLowerCase().includes(term) || c.number.includes(term));
      return { data: { contacts: found, hasMore: false, count: found.length } };
    }
    m = /^\/contacts\/(\d+)$/.exec(url);
    if (m) {
      const contact = state.contacts.find((c) => c.id === Number(m![1]));
      if (!contact) return { status: 404, data: { error: 'ERR_NO_CONTACT_FOUND' } };
      if (method === 'GET') return { data: contact };
      if (method === 'PUT') {
        const extra = (body.extraInfo as { id?: number; name: string; value: string }[] | undefined) ?? contact.extraInfo;
        Object.assign(contact, body, { extraInfo: extra?.map((e) => ({ id: e.id ?? nextId++, name: e.name, value: e.value })) });
        return { data: contact };
      }
    }

    // The schedule dialog the conversation opens in place (the schedules feature's).
    if (method === 'POST' && url === '/schedules') {
      const contact = state.contacts.find((c) => c.id === Number(body.contactId)) ?? null;
      return { status: 201, data: { id: nextId++, body: body.body, sendAt: body.sendAt, status: 'PENDENTE', contactId: contact?.id ?? null, contact } };
    }
    if (method === 'GET' && url === '/ticket-notes/list') {
      const notes = state.notes.filter((n) => n.ticketId === Number(params.ticketId));
      return { data: [...notes].sort((a, b) => b.id - a.id) };
    }
    if (method === 'POST' && url === '/ticket-notes') {
      const note: TicketNote = {
        id: nextId++,
        note: String(body.note),
        ticketId: Number(body.ticketId),
        contactId: Number(body.contactId),
        user: { ...ME },
        createdAt: new Date().toISOString(),
      };
      state.notes.push(note);
      return { status: 201, data: note };
    }
    m = /^\/ticket-notes\/(\d+)$/.exec(url);
    if (m && method === 'DELETE') {
      state.notes = state.notes.filter((n) => n.id !== Number(m![1]));
      return { data: { message: 'Note deleted' } };
    }
    return undefined;
  });
  return { state, calls };
};
