import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../../../i18n';
import { collectToasts, renderApp, renderWithProviders, signIn } from '../../../test/render';
import { makeContact, makeMessage, makeTicket, ME, ticketsServer } from '../test/fake-tickets-server';
import { MessageList } from './message-list';

const MARIA = makeContact(11, { name: 'Maria Oliveira', number: '5511987654321' });
const from = { id: MARIA.id, name: MARIA.name, number: MARIA.number };

const setup = () => {
  const ticket = makeTicket(1, { contact: MARIA, contactId: MARIA.id });
  const server = ticketsServer({
    tickets: [ticket],
    contacts: [MARIA],
    messages: [
      makeMessage(1, ticket.id, { mediaType: 'image', mediaStatus: 'failed', body: 'a foto', contact: from }),
      makeMessage(2, ticket.id, { mediaType: 'application', mediaStatus: 'tooLarge', mediaName: null, body: '', contact: from }),
      makeMessage(3, ticket.id, { mediaType: 'video', mediaStatus: 'pending', body: '', contact: from }),
    ],
  });
  signIn({ id: ME.id, name: ME.name });
  renderApp(`/tickets/${ticket.uuid}`);
  return server;
};

describe('a received file whose download failed', () => {
  it('offers "Download again", which asks the server to fetch it again; too large or on its way offers nothing', async () => {
    const { calls } = setup();
    const failed = await screen.findByTestId('media-status-1');
    expect(within(screen.getByTestId('media-status-2')).queryByRole('button')).toBeNull();
    expect(within(screen.getByTestId('media-status-3')).queryByRole('button')).toBeNull();
    fireEvent.click(within(failed).getByRole('button', { name: 'Download again' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/messages/1/media')).toBe(true));
  });

  it('a refused request says why', async () => {
    const server = setup();
    server.state.fail['POST /messages/1/media'] = { status: 409, data: { error: 'ERR_WAPP_NOT_INITIALIZED' } };
    const toasts = collectToasts();
    fireEvent.click(within(await screen.findByTestId('media-status-1')).getByRole('button', { name: 'Download again' }));
    await waitFor(() => expect(toasts.some((toast) => toast.message.includes('not initialised'))).toBe(true));
  });

  it('says so in each language, and not in a read-only view', async () => {
    const rows = [makeMessage(1, 5, { mediaType: 'image', mediaStatus: 'failed', body: '' })];
    const list = (readOnly?: boolean) =>
      renderWithProviders(
        <div style={{ height: 600, display: 'flex', flexDirection: 'column' }}>
          <MessageList messages={rows} hasMore={false} loading={false} loadOlder={async () => false} readOnly={readOnly} />
        </div>,
      );
    try {
      for (const [language, label] of [
        ['pt', 'Baixar de novo'],
        ['es', 'Descargar de nuevo'],
        ['en', 'Download again'],
      ]) {
        await i18n.changeLanguage(language);
        const { unmount } = list();
        expect(screen.getByTestId('media-retry-1').textContent).toBe(label);
        unmount();
      }
    } finally {
      await i18n.changeLanguage('en');
    }
    list(true);
    expect(screen.getByTestId('media-status-1')).toBeTruthy();
    expect(screen.queryByTestId('media-retry-1')).toBeNull();
  });
});
