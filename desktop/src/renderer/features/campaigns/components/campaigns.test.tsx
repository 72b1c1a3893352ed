import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignCounts, CampaignStatus } from '@atrium/shared';
import { realtime } from '../../../api/socket';
import { usePreferences } from '../../../stores/preferences-store';
import { collectToasts, fakeServer, planReply, renderApp, signIn, type FakeCall } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import type { Campaign, CampaignReport, CampaignShipping } from '../api/campaigns';

const NOW = '2026-11-27T00:00:00.000Z';
const ZERO: CampaignCounts = { total: 0, pending: 0, sent: 0, failed: 0, delivered: 0, read: 0, replied: 0 };

const campaign = (id: number, name: string, status: CampaignStatus, extra: Partial<Campaign> = {}): Campaign => ({
  id,
  name,
  message1: 'Olá {nome}',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  status,
  scheduledAt: null,
  startedAt: null,
  completedAt: null,
  whatsappId: 4,
  contactListId: 1,
  tagId: null,
  tagListId: null,
  fileListId: null,
  companyId: 3,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  confirmation: false,
  editable: status === 'INATIVA' || status === 'CANCELADA',
  whatsapp: { id: 4, name: 'Vendas', status: 'CONNECTED' },
  contactList: { id: 1, name: 'Clientes' },
  tag: null,
  counts: ZERO,
  createdAt: NOW,
  updatedAt: NOW,
  ...extra,
});

const shipping = (id: number, extra: Partial<CampaignShipping> = {}): CampaignShipping => ({
  id,
  campaignId: 1,
  contactListItemId: id,
  contactId: null,
  name: `Contato ${id}`,
  number: `55119000000${id}`,
  variant: 1,
  message: `Olá Contato ${id}`,
  status: 'pending',
  error: null,
  plannedAt: NOW,
  sentAt: null,
  deliveredAt: null,
  readAt: null,
  repliedAt: null,
  ...extra,
});

/** /campaigns, its report and settings, and the dialog's choices, in memory. */
const campaignsServer = (campaigns: Campaign[], extra: (call: FakeCall) => { status?: number; data?: unknown } | undefined = () => undefined) =>
  fakeServer((call) => {
    const own = extra(call);
    if (own) return own;
    if (call.url.startsWith('/companies/listPlan/')) return planReply({ useCampaigns: true });
    if (call.method === 'GET' && call.url === '/campaigns/') return { data: { records: campaigns, hasMore: false } };
    if (call.method === 'GET' && call.url === '/whatsapp/') return { data: [{ id: 4, name: 'Vendas' }] };
    if (call.method === 'GET' && call.url === '/contact-lists/list') return { data: [{ id: 1, name: 'Clientes' }] };
    if (call.method === 'GET' && call.url === '/tags/list') return { data: [{ id: 7, name: 'VIP' }] };
    if (call.method === 'GET' && call.url === '/files/') return { data: { files: [{ id: 2, name: 'Catálogo' }], hasMore: false } };
    if (call.method === 'POST' && call.url === '/campaigns') {
      const created = campaign(50, (call.data as { name: string }).name, 'INATIVA');
      campaigns.unshift(created);
      return { status: 201, data: created };
    }
    const action = /^\/campaigns\/(\d+)\/(cancel|restart)$/.exec(call.url);
    if (call.method === 'POST' && action) {
      const found = campaigns.find((c) => c.id === Number(action[1]))!;
      found.status = action[2] === 'cancel' ? 'CANCELADA' : 'EM_ANDAMENTO';
      return { status: 204 };
    }
    return undefined;
  });

// The pages are lazy routes: loaded once here, so a busy machine's first transform is not a test's time.
beforeAll(async () => {
  await Promise.all([import('./campaigns-page'), import('./campaign-report-page'), import('./campaigns-config-page')]);
});

const admin = () => {
  usePreferences.setState({ cshow: true });
  signIn({ profile: 'admin' });
};

describe('/campaigns', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });
  const connect = async () => {
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 1, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    return socketServer.sockets[socketServer.sockets.length - 1];
  };

  it('shows status, list and connection; stop only while running, restart only when stopped, no delete while running', async () => {
    campaignsServer([
      campaign(1, 'Black Friday', 'EM_ANDAMENTO', { counts: { ...ZERO, total: 10, pending: 6, sent: 4 } }),
      campaign(2, 'Natal', 'CANCELADA'),
      campaign(3, 'Ano novo', 'INATIVA', { whatsapp: null, whatsappId: null }),
    ]);
    admin();
    renderApp('/campaigns');
    expect((await screen.findByTestId('campaign-status-1')).textContent).toBe('Running');
    expect(screen.getByTestId('campaign-progress-1').textContent).toBe('4 of 10 sent');
    expect(screen.getByTestId('campaign-status-2').textContent).toBe('Stopped');
    const row3 = screen.getByTestId('campaign-row-3');
    expect(within(row3).getByText('None')).toBeTruthy();
    expect(screen.getByTestId('campaign-stop-1')).toBeTruthy();
    expect(screen.queryByTestId('campaign-stop-2')).toBeNull();
    expect(screen.getByTestId('campaign-restart-2')).toBeTruthy();
    expect(screen.queryByTestId('campaign-restart-1')).toBeNull();
    expect(screen.queryByTestId('campaign-delete-1')).toBeNull();
    expect(screen.getByTestId('campaign-delete-2')).toBeTruthy();
  });

  it('stops a running campaign and shows a refused restart as an error toast', async () => {
    const toasts = collectToasts();
    const calls = campaignsServer([campaign(1, 'Black Friday', 'EM_ANDAMENTO'), campaign(2, 'Natal', 'CANCELADA')], (call) =>
      call.url === '/campaigns/2/restart' ? { status: 409, data: { error: 'ERR_CAMPAIGN_STATUS' } } : undefined,
    );
    admin();
    renderApp('/campaigns');
    fireEvent.click(await screen.findByTestId('campaign-stop-1'));
    await waitFor(() => expect(screen.getByTestId('campaign-status-1').textContent).toBe('Stopped'));
    expect(calls.some((c) => c.method === 'POST' && c.url === '/campaigns/1/cancel')).toBe(true);
    fireEvent.click(screen.getByTestId('campaign-restart-2'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message === 'The campaign cannot do that in its current status.')).toBe(true));
  });

  it('follows the throttled progress events of a running campaign', async () => {
    campaignsServer([campaign(1, 'Black Friday', 'EM_ANDAMENTO', { counts: { ...ZERO, total: 10, pending: 10 } })]);
    admin();
    const socket = await connect();
    renderApp('/campaigns');
    await screen.findByTestId('campaign-progress-1');
    act(
      () =>
        void socket.emit('company-3-campaign', {
          action: 'update',
          record: { id: 1, status: 'FINALIZADA', completedAt: NOW, counts: { ...ZERO, total: 10, sent: 9, failed: 1 } },
        }),
    );
    await waitFor(() => expect(screen.getByTestId('campaign-status-1').textContent).toBe('Finished'));
    expect(screen.getByTestId('campaign-progress-1').textContent).toBe('10 of 10 sent');
    expect(screen.getByTestId('campaign-name-1').textContent).toBe('Black Friday');
  });

  it('adds a campaign with its connection, list and messages, saying the variants are alternatives', async () => {
    const toasts = collectToasts();
    const calls = campaignsServer([]);
    admin();
    renderApp('/campaigns');
    fireEvent.click(await screen.findByTestId('campaigns-add'));
    const dialog = await screen.findByTestId('campaign-dialog');
    expect(screen.getByTestId('campaign-variants-hint').textContent).toContain('picked at random');
    fireEvent.change(screen.getByTestId('campaign-name'), { target: { value: 'Promoção' } });
    await waitFor(() => expect(within(screen.getByTestId('campaign-whatsapp')).getAllByRole('option')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('campaign-whatsapp'), { target: { value: '4' } });
    await waitFor(() => expect(within(screen.getByTestId('campaign-contact-list')).getAllByRole('option')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('campaign-contact-list'), { target: { value: '1' } });
    fireEvent.change(screen.getByTestId('campaign-message-1'), { target: { value: 'Olá {nome}!' } });
    fireEvent.click(screen.getByTestId('campaign-tab-2'));
    fireEvent.change(await screen.findByTestId('campaign-message-2'), { target: { value: 'Oi {nome}, tudo bem?' } });
    fireEvent.click(within(dialog).getByTestId('campaign-save'));
    await waitFor(() => expect(toasts.some((t) => t.message === 'Campaign saved.')).toBe(true));
    expect(calls.find((c) => c.method === 'POST' && c.url === '/campaigns')?.data).toMatchObject({
      name: 'Promoção',
      whatsappId: 4,
      contactListId: 1,
      tagListId: null,
      fileListId: null,
      scheduledAt: null,
      message1: 'Olá {nome}!',
      message2: 'Oi {nome}, tudo bem?',
    });
  });

  it('shows a campaign that can no longer change read-only, without a save button', async () => {
    campaignsServer([campaign(1, 'Black Friday', 'FINALIZADA')]);
    admin();
    renderApp('/campaigns');
    fireEvent.click(await screen.findByTestId('campaign-edit-1'));
    await screen.findByTestId('campaign-read-only');
    expect(screen.queryByTestId('campaign-save')).toBeNull();
    expect((screen.getByTestId('campaign-name') as HTMLInputElement).disabled).toBe(true);
    // Its own connection and list show, whether or not the choices have loaded.
    expect((screen.getByTestId('campaign-whatsapp') as HTMLSelectElement).value).toBe('4');
    expect((screen.getByTestId('campaign-contact-list') as HTMLSelectElement).value).toBe('1');
  });
});

describe('/campaign/:id/report', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });

  it('shows the counts, the progress and the chart, follows the campaign live, and filters the rows', async () => {
    const report: CampaignReport = {
      campaignId: 1,
      status: 'EM_ANDAMENTO',
      startedAt: NOW,
      completedAt: null,
      estimatedEndAt: null,
      ...ZERO,
      total: 4,
      pending: 3,
      sent: 1,
      delivered: 1,
    };
    const calls = campaignsServer([campaign(1, 'Black Friday', 'EM_ANDAMENTO')], (call) => {
      if (call.url === '/campaigns/1') return { data: campaign(1, 'Black Friday', 'EM_ANDAMENTO') };
      if (call.url === '/campaigns/1/report') return { data: report };
      if (call.url === '/campaigns/1/shipping') {
        const status = (call.params as { status?: string }).status;
        const rows = [shipping(1, { status: 'sent', sentAt: NOW, deliveredAt: NOW }), shipping(2), shipping(3), shipping(4)];
        return { data: { records: status === 'delivered' ? rows.slice(0, 1) : rows, hasMore: false } };
      }
      return undefined;
    });
    admin();
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 1, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    const socket = socketServer.sockets[socketServer.sockets.length - 1];
    renderApp('/campaign/1/report');
    expect((await screen.findByTestId('campaign-report-total')).textContent).toBe('4');
    expect(screen.getByTestId('campaign-report-percent').textContent).toBe('25% done (1 of 4)');
    expect(screen.getByTestId('campaign-report-bar-delivered').style.width).toBe('25%');
    expect((await screen.findByTestId('campaign-shipping-status-1')).textContent).toBe('Delivered');
    expect(screen.getByTestId('campaign-shipping-status-2').textContent).toBe('Pending');

    act(
      () =>
        void socket.emit('company-3-campaign', {
          action: 'update',
          record: { id: 1, status: 'FINALIZADA', completedAt: NOW, counts: { ...ZERO, total: 4, sent: 3, failed: 1, delivered: 2 } },
        }),
    );
    await waitFor(() => expect(screen.getByTestId('campaign-report-percent').textContent).toBe('100% done (4 of 4)'));
    expect(screen.getByTestId('campaign-report-status').textContent).toBe('Finished');
    // Another campaign's progress does not touch this report.
    act(() => void socket.emit('company-3-campaign', { action: 'update', record: { id: 2, status: 'EM_ANDAMENTO', completedAt: null, counts: ZERO } }));

    fireEvent.change(screen.getByTestId('campaign-report-filter'), { target: { value: 'delivered' } });
    await waitFor(() => expect(screen.queryByTestId('campaign-shipping-row-2')).toBeNull());
    expect(calls.some((c) => c.url === '/campaigns/1/shipping' && (c.params as { status?: string }).status === 'delivered')).toBe(true);
    expect(screen.getByTestId('campaign-report-percent').textContent).toBe('100% done (4 of 4)');
  });
});

describe('/campaigns-config', () => {
  it('starts from the defaults, refuses a repeated variable key, and saves the settings', async () => {
    const toasts = collectToasts();
    const calls = campaignsServer([], (call) => {
      if (call.method === 'GET' && call.url === '/campaign-settings') return { data: [] };
      if (call.method === 'POST' && call.url === '/campaign-settings') return { data: [{ id: 1, key: 'messageInterval', value: '5', companyId: 3 }] };
      return undefined;
    });
    admin();
    renderApp('/campaigns-config');
    const interval = (await screen.findByTestId('campaigns-config-message-interval')) as HTMLSelectElement;
    expect(interval.value).toBe('20');
    expect((screen.getByTestId('campaigns-config-longer-after') as HTMLSelectElement).value).toBe('20');
    expect((screen.getByTestId('campaigns-config-greater-interval') as HTMLSelectElement).value).toBe('60');
    fireEvent.change(interval, { target: { value: '5' } });
    for (const i of [0, 1]) {
      fireEvent.click(screen.getByTestId('campaigns-config-variable-add'));
      fireEvent.change(await screen.findByTestId(`campaigns-config-variable-key-${i}`), { target: { value: 'empresa' } });
      fireEvent.change(screen.getByTestId(`campaigns-config-variable-value-${i}`), { target: { value: 'Acme' } });
    }
    fireEvent.click(screen.getByTestId('campaigns-config-save'));
    await waitFor(() => expect(screen.getByTestId('campaigns-config-variable-1').textContent).toContain('This key is already in the list.'));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByTestId('campaigns-config-variable-remove-1'));
    fireEvent.click(screen.getByTestId('campaigns-config-save'));
    await waitFor(() => expect(toasts.some((t) => t.message === 'Campaign settings saved.')).toBe(true));
    expect((calls.find((c) => c.method === 'POST')?.data as { settings: unknown }).settings).toMatchObject({
      messageInterval: 5,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [{ key: 'empresa', value: 'Acme' }],
    });
  });
});
