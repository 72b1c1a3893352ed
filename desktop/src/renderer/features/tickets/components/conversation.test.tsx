import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { collectToasts, preloadPages, renderApp, signIn } from '../../../test/render';
import { makeContact, makeMessage, makeTicket, ME, ticketsServer } from '../test/fake-tickets-server';

const MARIA = makeContact(11, { name: 'Maria Oliveira', number: '5511987654321' });
const TAGS = [
  { id: 1, name: 'VIP', color: '#6a1b9a' },
  { id: 2, name: 'Billing', color: '#00838f' },
];

const setup = (ticket = makeTicket(1, { contact: MARIA, contactId: MARIA.id })) => {
  const server = ticketsServer({
    tickets: [ticket],
    contacts: [MARIA],
    tags: TAGS,
    messages: [
      makeMessage(1, ticket.id, { body: 'Where is my order?', contact: { id: MARIA.id, name: MARIA.name, number: MARIA.number } }),
      makeMessage(2, ticket.id, { fromMe: true, ack: 3, body: 'Let me check', user: { ...ME } }),
    ],
  });
  signIn({ id: ME.id, name: ME.name });
  renderApp(`/tickets/${ticket.uuid}`);
  return server;
};

beforeAll(() => preloadPages(() => import('./tickets-page')), 120_000);

const openMenu = (messageId: number) => fireEvent.click(within(screen.getByTestId(`message-${messageId}`)).getByRole('button', { name: /^Message actions/ }));
const input = () => screen.getByTestId('message-input') as HTMLTextAreaElement;

describe('conversation: reply and quote', () => {
  it('replying sends quotedMsg and the new bubble shows the quoted message', async () => {
    const { calls } = setup();
    await screen.findByTestId('message-1');
    openMenu(1);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Reply' }));
    expect((await screen.findByTestId('reply-preview')).textContent).toContain('Where is my order?');
    fireEvent.change(input(), { target: { value: 'It ships today' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/messages/1')).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.url === '/messages/1');
    expect(post?.data).toMatchObject({ body: 'It ships today', quotedMsg: { id: 1 } });
    await waitFor(() => expect(screen.queryByTestId('reply-preview')).toBeNull());
    const sent = await screen.findByText('It ships today');
    const bubble = sent.closest('[data-testid^="message-"]') as HTMLElement;
    expect(within(bubble).getByTestId(/^quoted-/).textContent).toContain('Where is my order?');
  });

  it('a cancelled reply quotes nothing', async () => {
    const { calls } = setup();
    await screen.findByTestId('message-1');
    openMenu(1);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Reply' }));
    fireEvent.click(within(await screen.findByTestId('reply-preview')).getByRole('button', { name: 'Cancel reply' }));
    expect(screen.queryByTestId('reply-preview')).toBeNull();
    fireEvent.change(input(), { target: { value: 'Plain answer' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/messages/1')).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.url === '/messages/1');
    expect((post?.data as { quotedMsg?: unknown }).quotedMsg).toBeUndefined();
  });
});

describe('conversation: deleting an own message', () => {
  it('asks, deletes and shows the deleted marker from the answer', async () => {
    const { calls } = setup();
    await screen.findByTestId('message-2');
    openMenu(2);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/messages/2')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('message-2').textContent).toContain('This message was deleted'));
    expect(screen.getByTestId('message-2').textContent).not.toContain('Let me check');
  });

  it("a failed delete keeps the message and says why", async () => {
    const server = setup();
    server.state.fail['DELETE /messages/:id'] = { status: 400, data: { error: 'ERR_DELETE_WAPP_MSG' } };
    const toasts = collectToasts();
    await screen.findByTestId('message-2');
    openMenu(2);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(screen.getByTestId('message-2').textContent).toContain('Let me check');
  });
});

describe('conversation: tags bar', () => {
  const tagsBox = () => screen.getByRole('combobox', { name: 'Tags' });
  const chips = () => within(screen.getByTestId('conversation-tags')).queryAllByTestId(/^conversation-tag-/).map((c) => c.textContent);

  it('choosing tags syncs them (POST /tags/sync) and shows them', async () => {
    const { calls } = setup();
    await screen.findByTestId('message-1');
    fireEvent.click(tagsBox());
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Billing' }));
    await waitFor(() => expect(chips()).toEqual(['Billing']));
    const sync = calls.filter((c) => c.url === '/tags/sync');
    expect(sync).toHaveLength(1);
    expect(sync[0].data).toEqual({ ticketId: 1, tags: [{ id: 2, name: 'Billing', color: '#00838f' }] });

    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'VIP' }));
    await waitFor(() => expect(chips()).toEqual(['VIP', 'Billing']));
    expect((calls.filter((c) => c.url === '/tags/sync')[1].data as { tags: { id: number }[] }).tags.map((t) => t.id).sort()).toEqual([1, 2]);

    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Billing' }));
    await waitFor(() => expect(chips()).toEqual(['VIP']));
    expect(calls.filter((c) => c.url === '/tags/sync')[2].data).toEqual({ ticketId: 1, tags: [{ id: 1, name: 'VIP', color: '#6a1b9a' }] });
  });

  it('shows the tags the ticket already has, and keeps them when the sync fails', async () => {
    const server = setup(makeTicket(1, { contact: MARIA, contactId: MARIA.id, tags: [TAGS[0]] }));
    server.state.fail['POST /tags/sync'] = { status: 403, data: { error: 'ERR_NO_PERMISSION' } };
    const toasts = collectToasts();
    await screen.findByTestId('message-1');
    expect(chips()).toEqual(['VIP']);
    fireEvent.click(tagsBox());
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Billing' }));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(chips()).toEqual(['VIP']);
  });
});

describe('conversation: tags bar creates a tag by its name', () => {
  const picker = () => screen.getByRole('combobox', { name: 'Tags' }) as HTMLInputElement;
  const chips = () => within(screen.getByTestId('conversation-tags')).queryAllByTestId(/^conversation-tag-/).map((c) => c.textContent);

  it('typing a new name offers to create it; choosing that syncs the ticket with the name and shows the chip', async () => {
    const server = setup(makeTicket(1, { contact: MARIA, contactId: MARIA.id, tags: [TAGS[0]] }));
    await screen.findByTestId('message-1');
    fireEvent.click(picker());
    fireEvent.change(picker(), { target: { value: 'Urgente' } });
    const create = await screen.findByRole('menuitemcheckbox', { name: 'Create tag “Urgente”' });
    // Typing filters the existing tags.
    expect(screen.queryByRole('menuitemcheckbox', { name: 'Billing' })).toBeNull();
    const tagLists = () => server.calls.filter((c) => c.method === 'GET' && c.url === '/tags/list').length;
    const listsBefore = tagLists();
    fireEvent.click(create);
    await waitFor(() => expect(chips()).toEqual(['VIP', 'Urgente']));
    const sync = server.calls.filter((c) => c.url === '/tags/sync');
    expect(sync).toHaveLength(1);
    expect(sync[0].data).toEqual({ ticketId: 1, tags: [TAGS[0], { name: 'Urgente' }] });
    // The new tag is listed from now on (the tags list is read again).
    await waitFor(() => expect(tagLists()).toBeGreaterThan(listsBefore));
  });

  it('a name the company already has (any case) or shorter than 3 characters offers no creation', async () => {
    setup();
    await screen.findByTestId('message-1');
    fireEvent.click(picker());
    fireEvent.change(picker(), { target: { value: 'vip' } });
    expect(await screen.findByRole('menuitemcheckbox', { name: 'VIP' })).toBeTruthy();
    expect(screen.queryByTestId('tags-picker-create')).toBeNull();
    fireEvent.change(picker(), { target: { value: 'ab' } });
    await waitFor(() => expect(screen.queryByRole('menuitemcheckbox', { name: 'VIP' })).toBeNull());
    expect(screen.queryByTestId('tags-picker-create')).toBeNull();
  });
});

describe('conversation: schedule', () => {
  it('opens the schedule dialog in place, pre-filled with the contact, saves, and stays in the conversation', async () => {
    const { calls } = setup();
    const toasts = collectToasts();
    await screen.findByTestId('message-1');
    fireEvent.click(screen.getByTestId('ticket-schedule'));
    const modal = await screen.findByTestId('schedule-modal');
    const contact = within(modal).getByTestId('schedule-contact');
    const contactInput = (contact.tagName === 'INPUT' ? contact : within(contact).getByRole('combobox')) as HTMLInputElement;
    await waitFor(() => expect(contactInput.value).toBe('Maria Oliveira'));
    expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-1');
    fireEvent.change(within(modal).getByTestId('schedule-body'), { target: { value: 'Lembrete do seu pedido' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/schedules')).toBe(true));
    expect(calls.find((c) => c.url === '/schedules')?.data).toMatchObject({ body: 'Lembrete do seu pedido', contactId: MARIA.id });
    await waitFor(() => expect(screen.queryByTestId('schedule-modal')).toBeNull());
    expect(toasts.some((t) => t.intent === 'success')).toBe(true);
    expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-1');
    expect(screen.getByTestId('message-1')).toBeTruthy();
  });
});

describe('conversation: older messages', () => {
  it('scrolling near the top loads the previous page and puts it before the others', async () => {
    const ticket = makeTicket(1, { contact: MARIA, contactId: MARIA.id });
    const { calls } = ticketsServer({
      tickets: [ticket],
      contacts: [MARIA],
      messages: Array.from({ length: 25 }, (_, i) => makeMessage(i + 1, 1, { body: `Line ${i + 1}` })),
    });
    signIn({ id: ME.id });
    renderApp('/tickets/uuid-1');
    await screen.findByText('Line 25');
    const pages = () => calls.filter((c) => c.url === '/messages/1').map((c) => (c.params as { pageNumber: number }).pageNumber);
    expect(pages()).toEqual([1]);
    expect(screen.queryByText('Line 5')).toBeNull();

    const list = screen.getByTestId('message-list');
    Object.defineProperty(list, 'scrollTop', { configurable: true, writable: true, value: 10 });
    fireEvent.scroll(list);
    await waitFor(() => expect(pages()).toEqual([1, 2]));
    Object.defineProperty(list, 'scrollTop', { configurable: true, writable: true, value: 0 });
    fireEvent.scroll(list);
    expect(await screen.findByText('Line 1')).toBeTruthy();
    const shown = screen.getAllByTestId(/^message-\d+$/).map((el) => Number(el.dataset.testid?.slice(8)));
    expect(shown.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    // The history is complete: no third page is asked for.
    fireEvent.scroll(list);
    await new Promise((r) => setTimeout(r, 50));
    expect(pages()).toEqual([1, 2]);
  });
});

describe('conversation: header', () => {
  it('shows the contact and ticket id, and the actions of an open ticket', async () => {
    setup();
    expect((await screen.findByTestId('conversation-contact')).textContent).toContain('Maria Oliveira');
    expect(screen.getByTestId('conversation-contact').textContent).toContain('#1');
    expect(screen.getByTestId('ticket-return')).toBeTruthy();
    expect(screen.getByTestId('ticket-resolve')).toBeTruthy();
    expect(screen.getByTestId('ticket-transfer')).toBeTruthy();
    expect(screen.queryByTestId('ticket-reopen')).toBeNull();
  });

  it('resolve closes the ticket (bot, prompt and integration off) and goes back to /tickets', async () => {
    const { calls } = setup();
    fireEvent.click(await screen.findByTestId('ticket-resolve'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/tickets/1',
      data: { status: 'closed', userId: ME.id, useIntegration: false, promptId: null, integrationId: null },
    });
  });

  it('return puts the ticket back in the waiting line', async () => {
    const { calls } = setup();
    fireEvent.click(await screen.findByTestId('ticket-return'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(calls.find((c) => c.method === 'PUT')?.data).toEqual({ status: 'pending', userId: null });
  });

  it('accepting a pending ticket keeps it open on screen', async () => {
    const { calls } = setup(makeTicket(1, { contact: MARIA, contactId: MARIA.id, status: 'pending', userId: null, user: null }));
    expect(((await screen.findByTestId('message-input')) as HTMLTextAreaElement).disabled).toBe(true);
    // The header's own button (the list item has its own, ticket-accept-{id}).
    fireEvent.click(await screen.findByTestId('conversation-accept'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.data).toEqual({ status: 'open', userId: ME.id }));
    await waitFor(() => expect(input().disabled).toBe(false));
    expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-1');
  });

  it("another agent's open conversation is readable, with no input, actions or message menu, and says who handles it", async () => {
    const bruno = { id: 9, name: 'Bruno Lima' };
    const ticket = makeTicket(1, { contact: MARIA, contactId: MARIA.id, userId: bruno.id, user: bruno });
    ticketsServer({ tickets: [ticket], contacts: [MARIA], messages: [makeMessage(1, ticket.id, { fromMe: true, body: 'Checking', user: bruno })] });
    signIn({ id: ME.id, name: ME.name, profile: 'user' });
    renderApp(`/tickets/${ticket.uuid}`);
    expect((await screen.findByTestId('conversation-handled-by-other')).textContent).toContain('Bruno Lima is handling this conversation');
    await screen.findByTestId('message-1');
    expect(screen.queryByTestId('message-input')).toBeNull();
    for (const id of ['ticket-return', 'ticket-resolve', 'ticket-transfer']) expect(screen.queryByTestId(id)).toBeNull();
    expect(within(screen.getByTestId('message-1')).queryByRole('button', { name: /^Message actions/ })).toBeNull();
  });

  it('an admin may act on an agent’s open conversation', async () => {
    const bruno = { id: 9, name: 'Bruno Lima' };
    setup(makeTicket(1, { contact: MARIA, contactId: MARIA.id, userId: bruno.id, user: bruno }));
    await screen.findByTestId('message-input');
    expect(screen.getByTestId('ticket-resolve')).toBeTruthy();
    expect(screen.queryByTestId('conversation-handled-by-other')).toBeNull();
  });

  it('a closed ticket offers reopen and blocks the input', async () => {
    setup(makeTicket(1, { contact: MARIA, contactId: MARIA.id, status: 'closed' }));
    await screen.findByTestId('ticket-reopen');
    expect(screen.queryByTestId('ticket-resolve')).toBeNull();
    expect(input().disabled).toBe(true);
  });
});

describe('conversation: a message that failed to send', () => {
  const failedSetup = () => {
    const ticket = makeTicket(1, { contact: MARIA, contactId: MARIA.id });
    const server = ticketsServer({
      tickets: [ticket],
      contacts: [MARIA],
      messages: [
        makeMessage(1, ticket.id, { body: 'Hello?', contact: { id: MARIA.id, name: MARIA.name, number: MARIA.number } }),
        makeMessage(2, ticket.id, { fromMe: true, ack: 0, sendError: 'ERR_WAPP_INVALID_CONTACT', body: 'Are you there?', user: { ...ME } }),
        makeMessage(3, ticket.id, { fromMe: true, ack: 0, body: 'Still waiting to leave', user: { ...ME } }),
      ],
    });
    signIn({ id: ME.id, name: ME.name });
    renderApp(`/tickets/${ticket.uuid}`);
    return server;
  };

  it('says it was not sent and why, and the resend action sends it again', async () => {
    const { calls } = failedSetup();
    const notSent = await screen.findByTestId('not-sent-2');
    expect(notSent.textContent).toContain('Not sent');
    expect(notSent.textContent).toContain('not a valid WhatsApp number');
    // A message still waiting shows the clock, not a failure.
    expect(screen.queryByTestId('not-sent-3')).toBeNull();
    expect(within(screen.getByTestId('message-3')).getByLabelText('ack-0')).toBeTruthy();
    fireEvent.click(within(notSent).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/messages/2/resend')).toBe(true));
  });

  it('a refused resend says why', async () => {
    const server = failedSetup();
    server.state.fail['POST /messages/2/resend'] = { status: 409, data: { error: 'ERR_CONFLICT' } };
    const toasts = collectToasts();
    fireEvent.click(within(await screen.findByTestId('not-sent-2')).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(toasts.length).toBeGreaterThan(0));
  });
});
