import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { i18n } from '../../../i18n';
import { fakeServer, planReply, renderApp, renderWithProviders, signIn, type FakeCall } from '../../../test/render';
import ConnectionsPage from './connections-page';
import { ConnectionModal } from './connection-modal';
import { QrModal } from './qr-modal';
import { StatusActions } from './status-actions';
import { makeConnection } from '../test/make-connection';

const noop = () => undefined;
const renderStatus = (status: string) => {
  const handlers = { onShowQr: vi.fn(), onDisconnect: vi.fn(), onTryAgain: vi.fn(), onNewQr: vi.fn() };
  render(
    <AppProviders>
      <StatusActions connection={{ id: 1, status }} {...handlers} />
    </AppProviders>,
  );
  return handlers;
};

describe('connection status buttons (spec 01 section 4)', () => {
  it('qrcode offers the QR button', () => {
    const h = renderStatus('qrcode');
    fireEvent.click(screen.getByTestId('connection-qr-1'));
    expect(h.onShowQr).toHaveBeenCalled();
    expect(screen.queryByTestId('connection-disconnect-1')).toBeNull();
  });

  it.each(['PAIRING', 'TIMEOUT', 'CONNECTED'])('%s offers disconnect', (status) => {
    const h = renderStatus(status);
    fireEvent.click(screen.getByTestId('connection-disconnect-1'));
    expect(h.onDisconnect).toHaveBeenCalled();
    expect(screen.queryByTestId('connection-qr-1')).toBeNull();
  });

  it('DISCONNECTED offers try again and a new QR code', () => {
    const h = renderStatus('DISCONNECTED');
    fireEvent.click(screen.getByTestId('connection-retry-1'));
    fireEvent.click(screen.getByTestId('connection-newqr-1'));
    expect(h.onTryAgain).toHaveBeenCalled();
    expect(h.onNewQr).toHaveBeenCalled();
  });

  it('OPENING shows a disabled connecting button', () => {
    renderStatus('OPENING');
    const button = screen.getByTestId('connection-connecting-1');
    expect(button.textContent).toContain('Connecting');
    expect(button.hasAttribute('disabled') || button.getAttribute('aria-disabled') === 'true').toBe(true);
  });
});

describe('QR modal', () => {
  const base = { id: 4, name: 'Main', provider: 'sandbox' };

  it('shows the QR code and closes when the QR code becomes empty', () => {
    const onClose = vi.fn();
    const { rerender } = render(
      <AppProviders>
        <QrModal connection={{ ...base, qrcode: 'qr-data' }} onClose={onClose} />
      </AppProviders>,
    );
    expect(screen.getByTestId('qr-code')).toBeTruthy();
    expect(screen.getByTestId('qr-code').getAttribute('height')).toBe('256');
    expect(screen.getByTestId('qr-sandbox-scan')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    rerender(
      <AppProviders>
        <QrModal connection={{ ...base, qrcode: '' }} onClose={onClose} />
      </AppProviders>,
    );
    expect(onClose).toHaveBeenCalled();
  });

  it('offers no simulated scan for a WhatsApp connection', () => {
    render(
      <AppProviders>
        <QrModal connection={{ ...base, provider: 'beta', qrcode: 'x' }} onClose={noop} />
      </AppProviders>,
    );
    expect(screen.queryByTestId('qr-sandbox-scan')).toBeNull();
  });

  it('the sandbox scan calls POST /sandbox/{id}/scan', async () => {
    const calls = fakeServer(() => ({ data: { ok: true } }));
    render(
      <AppProviders>
        <QrModal connection={{ ...base, qrcode: 'x' }} onClose={noop} />
      </AppProviders>,
    );
    fireEvent.click(screen.getByTestId('qr-sandbox-scan'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/sandbox/4/scan')).toBe(true));
  });

  it('offers a pairing code for a phone number instead of the QR code, and shows it', async () => {
    const calls = fakeServer((call) => (call.url === '/whatsappsession/4/pairing-code' ? { data: { code: 'K7PQ2WXZ' } } : { data: {} }));
    render(
      <AppProviders>
        <QrModal connection={{ ...base, provider: 'beta', qrcode: 'x' }} onClose={noop} />
      </AppProviders>,
    );
    const request = screen.getByTestId('qr-pairing-request') as HTMLButtonElement;
    expect(request.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('qr-pairing-number'), { target: { value: '+55 11 98888-7777' } });
    fireEvent.click(request);
    expect((await screen.findByTestId('qr-pairing-code')).textContent).toContain('K7PQ2WXZ');
    const call = calls.find((c) => c.url === '/whatsappsession/4/pairing-code')!;
    expect(call.method).toBe('POST');
    expect(call.data).toEqual({ number: '+55 11 98888-7777' });
  });
});

describe('connections page', () => {
  const connection = (id: number, status: string) => makeConnection(id, { status, qrcode: status === 'qrcode' ? 'qr' : '' });

  it('lists connections with their status in words, last update dd/MM/yy HH:mm and admin buttons', async () => {
    fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url.startsWith('/whatsapp')) return { data: [connection(1, 'CONNECTED'), connection(2, 'qrcode')] };
      return { data: [] };
    });
    signIn({ profile: 'admin' });
    renderApp('/connections');
    // In words of the language, not the raw codes.
    expect((await screen.findByTestId('connection-status-1')).textContent).toBe('Connected');
    expect(screen.getByTestId('connection-status-1').dataset.status).toBe('CONNECTED');
    expect(screen.getByTestId('connection-status-2').textContent).toBe('Waiting for the QR code');
    expect(screen.getAllByText('05/03/24 14:07').length).toBe(2);
    expect(screen.getByTestId('connections-add')).toBeTruthy();
    fireEvent.click(screen.getByTestId('connection-qr-2'));
    expect(await screen.findByTestId('qr-modal')).toBeTruthy();
  });

  it('shows why a connection closed, in words of the language, with try again to reconnect a replaced session', async () => {
    fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url.startsWith('/whatsapp'))
        return {
          data: [
            { ...connection(3, 'DISCONNECTED'), disconnectReason: 'connectionReplaced:440' },
            { ...connection(4, 'OPENING'), disconnectReason: 'connectionClosed:408' },
            { ...connection(5, 'DISCONNECTED'), disconnectReason: 'an older row in plain words' },
            { ...connection(1, 'CONNECTED'), disconnectReason: '' },
          ],
        };
      return { data: [] };
    });
    signIn({ profile: 'admin' });
    renderApp('/connections');
    expect((await screen.findByTestId('connection-reason-3')).textContent).toBe('This number was opened in another session. Try again to take it back. (440)');
    expect(screen.getByTestId('connection-reason-4').textContent).toBe('The connection closed. (408)');
    expect(screen.getByTestId('connection-reason-5').textContent).toBe('an older row in plain words');
    expect(screen.getByTestId('connection-retry-3')).toBeTruthy();
    expect(screen.queryByTestId('connection-reason-1')).toBeNull();
    await i18n.changeLanguage('pt');
    try {
      await waitFor(() => expect(screen.getByTestId('connection-reason-3').textContent).toBe('Este número foi aberto em outra sessão. Tente novamente para retomá-lo. (440)'));
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('hides add, session and edit buttons from agents', async () => {
    fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url.startsWith('/whatsapp')) return { data: [connection(2, 'qrcode')] };
      return { data: [] };
    });
    signIn({ profile: 'user' });
    // The route sends agents to /tickets; the page itself holds the line too.
    renderWithProviders(<ConnectionsPage />, '/connections');
    await screen.findByTestId('connection-status-2');
    expect(screen.queryByTestId('connections-add')).toBeNull();
    expect(screen.queryByTestId('connection-qr-2')).toBeNull();
    expect(screen.queryByTestId('connection-edit-2')).toBeNull();
  });
});

describe('connection dialog: the messages API token', () => {
  const queuesAnd = (handler: (call: FakeCall) => { status?: number; data?: unknown } | undefined) =>
    fakeServer((call) => (call.url === '/queue' ? { data: [] } : handler(call)));

  it('says whether a token is set, and generates a new one only after a confirmation, showing it once', async () => {
    const calls = queuesAnd((call) =>
      call.method === 'PUT' ? { data: { ...makeConnection(5, { hasToken: true }), token: 'tok-NEW-123' } } : { data: {} },
    );
    renderWithProviders(<ConnectionModal connection={makeConnection(5, { hasToken: true })} onClose={noop} />);
    expect((await screen.findByTestId('connection-token-state')).textContent).toBe('A token is set.');
    fireEvent.click(screen.getByTestId('connection-token-generate'));
    // Revoking the old one is confirmed first.
    const question = await screen.findByText('Generate a new API token?');
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    // The confirmation's own button (the field's button behind it has the same name).
    const confirmation = question.closest<HTMLElement>('[role="dialog"], [role="alertdialog"]')!;
    fireEvent.click(within(confirmation).getByRole('button', { name: 'Generate a new token' }));
    const value = (await screen.findByTestId('connection-token-value')) as HTMLInputElement;
    expect(value.value).toBe('tok-NEW-123');
    expect(screen.getByText('Copy the token now: it is not shown again.')).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/whatsapp/5');
    expect(put.data).toEqual({ regenerateToken: true });
  });

  it('generates the first token without a confirmation', async () => {
    const calls = queuesAnd(() => ({ data: { ...makeConnection(6), hasToken: true, token: 'tok-FIRST' } }));
    renderWithProviders(<ConnectionModal connection={makeConnection(6, { hasToken: false })} onClose={noop} />);
    expect((await screen.findByTestId('connection-token-state')).textContent).toBe('No token yet.');
    fireEvent.click(screen.getByTestId('connection-token-generate'));
    expect(((await screen.findByTestId('connection-token-value')) as HTMLInputElement).value).toBe('tok-FIRST');
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.data)).toEqual([{ regenerateToken: true }]);
  });

  it('shows a new connection\'s token once after it is created, then closes', async () => {
    const onClose = vi.fn();
    queuesAnd((call) => (call.method === 'POST' ? { status: 201, data: { ...makeConnection(9, { name: 'Loja' }), token: 'tok-CREATED' } } : { data: {} }));
    renderWithProviders(<ConnectionModal onClose={onClose} />);
    // A connection not created yet has no token to show.
    expect(screen.queryByTestId('connection-token')).toBeNull();
    fireEvent.change(await screen.findByTestId('connection-name'), { target: { value: 'Loja' } });
    fireEvent.click(screen.getByTestId('connection-save'));
    expect(((await screen.findByTestId('connection-token-value')) as HTMLInputElement).value).toBe('tok-CREATED');
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('connection-token-done'));
    expect(onClose).toHaveBeenCalled();
  });
});
