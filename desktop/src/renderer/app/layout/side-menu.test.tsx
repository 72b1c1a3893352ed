import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtime } from '../../api/socket';
import { usePreferences } from '../../stores/preferences-store';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../test/socket-server';
import { applySessionEvent, applyWhatsappEvent, CONNECTION_BADGE_DELAY_MS, DOWN_NOTICE_MS, needsAttention } from './use-connection-warning';

const menuLinks = async () => {
  const nav = await screen.findByTestId('side-menu');
  // Wait for the plan to arrive (its entries appear once it has).
  return nav;
};

/** `answered.connections`: when the connections were first answered (performance.now()), 0 until then. */
const serve = (flags: Record<string, boolean>, connections: { id: number; name: string; status: string }[] = []) => {
  const answered = { connections: 0 };
  fakeServer(({ url }) => {
    if (url.startsWith('/companies/listPlan/')) return planReply(flags);
    if (url.startsWith('/whatsapp')) {
      answered.connections ||= performance.now();
      return { data: connections };
    }
    return undefined;
  });
  return answered;
};

describe('side menu', () => {
  it('shows an admin the admin section and the version footer', async () => {
    serve({ useKanban: true });
    signIn({ profile: 'admin' });
    renderApp('/tickets');
    const nav = await menuLinks();
    await within(nav).findByText('Kanban');
    for (const label of ['Dashboard', 'Tickets', 'Administration', 'Connections', 'Users', 'Queues & chatbot', 'Settings', 'Billing']) {
      expect(within(nav).getByText(label)).toBeTruthy();
    }
    expect(within(nav).getByTestId('app-version').textContent).toBe('Version 8.0.1');
  });

  it('shows an agent no dashboard, no admin section', async () => {
    serve({ useKanban: true });
    signIn({ profile: 'user' });
    renderApp('/tickets');
    const nav = await menuLinks();
    await within(nav).findByText('Kanban');
    expect(within(nav).getByText('Tickets')).toBeTruthy();
    for (const label of ['Dashboard', 'Administration', 'Connections', 'Users', 'Settings']) {
      expect(within(nav).queryByText(label)).toBeNull();
    }
  });

  it('follows the plan flags (kanban, Open.Ai, integrations, API)', async () => {
    serve({ useKanban: false, useOpenAi: true, useIntegrations: false, useExternalApi: true });
    signIn({ profile: 'admin' });
    renderApp('/tickets');
    const nav = await menuLinks();
    await within(nav).findByText('Open.Ai');
    expect(within(nav).getByText('Messages API')).toBeTruthy();
    expect(within(nav).queryByText('Kanban')).toBeNull();
    expect(within(nav).queryByText('Integrations')).toBeNull();
  });

  it('shows the campaign submenu with the cshow flag and the plan flag', async () => {
    serve({ useCampaigns: true });
    signIn({ profile: 'admin' });
    usePreferences.setState({ cshow: true });
    renderApp('/tickets');
    const nav = await menuLinks();
    expect(await within(nav).findByText('Campaigns')).toBeTruthy();
    expect(within(nav).getByText('Flows')).toBeTruthy();
  });

  it('puts a "!" on Connections 2 s after a connection needs attention', async () => {
    const answered = serve({}, [
      { id: 1, name: 'Main', status: 'CONNECTED' },
      { id: 2, name: 'Sales', status: 'qrcode' },
    ]);
    signIn({ profile: 'admin' });
    renderApp('/tickets');
    const nav = await menuLinks();
    await waitFor(() => expect(within(nav).getByTestId('connections-warning').textContent).toBe('!'));
    // From the moment the connections were answered (the badge's delay starts later, once they are on
    // screen), not from when a poll of the screen noticed the menu: on a busy machine that poll comes late.
    expect(performance.now() - answered.connections).toBeGreaterThanOrEqual(CONNECTION_BADGE_DELAY_MS - 5);
  });

  it('puts no badge when every connection is connected', async () => {
    serve({}, [{ id: 1, name: 'Main', status: 'CONNECTED' }]);
    signIn({ profile: 'admin' });
    renderApp('/tickets');
    const nav = await menuLinks();
    await within(nav).findByText('Connections');
    await new Promise((resolve) => setTimeout(resolve, CONNECTION_BADGE_DELAY_MS + 300));
    expect(within(nav).queryByTestId('connections-warning')).toBeNull();
  });
});

describe('a number down too long (company-{id}-whatsappSession "down")', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });

  it('tells an admin which number and for how long, in a notice that stays up to be read', async () => {
    serve({}, [{ id: 4, name: 'Sales', status: 'OPENING' }]);
    signIn({ profile: 'admin', companyId: 3 });
    const toasts = collectToasts();
    renderApp('/tickets');
    await menuLinks();
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    const socket = socketServer.sockets[socketServer.sockets.length - 1];

    // A status update is no notice; the down event is.
    socket.emit('company-3-whatsappSession', { action: 'update', session: { id: 4, status: 'OPENING', retries: 3 } });
    socket.emit('company-3-whatsappSession', { action: 'down', whatsappId: 4, name: 'Sales', number: '5511999990000', since: new Date().toISOString(), minutes: 15 });
    // (Earlier tests' unanswered requests left "Not found." toasts queued for the first listener.)
    const warnings = () => toasts.filter((t) => t.intent === 'warning');
    await until(() => warnings().length > 0);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ title: 'A connection is down', timeout: DOWN_NOTICE_MS });
    expect(warnings()[0].message).toBe('“Sales” (5511999990000) has been disconnected for more than 15 minutes and is still trying to reconnect. Check the phone and its network.');
    expect(await screen.findByText(warnings()[0].message)).toBeTruthy();
  });
});

describe('connection attention rules', () => {
  it('flags qrcode, PAIRING, DISCONNECTED, TIMEOUT and OPENING only', () => {
    for (const status of ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING']) {
      expect(needsAttention([{ status: 'CONNECTED' }, { status }])).toBe(true);
    }
    expect(needsAttention([{ status: 'CONNECTED' }, { status: 'connected' }])).toBe(false);
    expect(needsAttention(undefined)).toBe(false);
  });

  it('applies realtime updates: replace, add, delete, session status', () => {
    const list = [{ id: 1, name: 'A', status: 'CONNECTED' }];
    const added = applyWhatsappEvent(list, { action: 'update', whatsapp: { id: 2, name: 'B', status: 'OPENING' } });
    expect(added?.map((c) => c.id)).toEqual([1, 2]);
    const replaced = applyWhatsappEvent(added, { action: 'update', whatsapp: { id: 1, name: 'A2', status: 'TIMEOUT' } });
    expect(replaced?.[0]).toMatchObject({ name: 'A2', status: 'TIMEOUT' });
    const session = applySessionEvent(replaced, { action: 'update', session: { id: 2, status: 'CONNECTED' } });
    expect(session?.[1].status).toBe('CONNECTED');
    expect(applyWhatsappEvent(session, { action: 'delete', whatsappId: 1 })?.map((c) => c.id)).toEqual([2]);
  });
});
