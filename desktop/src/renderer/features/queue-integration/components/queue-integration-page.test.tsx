import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { QueueIntegrationView, WebhookDeliveryView } from '@atrium/shared';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';

const integration = (id: number, name: string, extra: Partial<QueueIntegrationView> = {}): QueueIntegrationView => ({
  id,
  type: 'typebot',
  name,
  projectName: name,
  language: 'pt-BR',
  urlN8N: 'https://typebot.example.com',
  typebotSlug: 'atendimento',
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
  hasJsonContent: false,
  jsonContentLast4: '',
  serviceAccountEmail: '',
  authType: 'none',
  authUser: '',
  authHeaderName: '',
  hasAuthSecret: false,
  authSecretLast4: '',
  webhookSync: false,
  hasSigningSecret: false,
  signingSecretLast4: '',
  companyId: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const delivery = (id: number, extra: Partial<WebhookDeliveryView> = {}): WebhookDeliveryView => ({
  id,
  eventId: `msg_${id}`,
  event: 'message.received',
  ticketId: 12,
  messageId: 80,
  status: 'delivered',
  attempts: 1,
  statusCode: 200,
  error: null,
  durationMs: 42,
  nextAttemptAt: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  ...extra,
});

/** /queueIntegration in memory, as the server answers it. */
const integrationsServer = (initial: QueueIntegrationView[], { testReply = { ok: true, error: null as string | null }, useIntegrations = true } = {}) => {
  const items = [...initial];
  const calls = fakeServer(async (call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply({ useIntegrations });
    if (call.method === 'GET' && call.url === '/queueIntegration/') return { data: { queueIntegrations: items, count: items.length, hasMore: false } };
    if (call.method === 'POST' && call.url === '/queueIntegration/testSession') return { data: testReply };
    if (call.method === 'POST' && call.url === '/queueIntegration') {
      const body = call.data as Partial<QueueIntegrationView>;
      const hook = body.type === 'webhook' || body.type === 'n8n';
      const created = integration(50, body.name ?? '', { ...body, hasSigningSecret: hook, signingSecretLast4: hook ? 'WXYZ' : '' });
      items.push(created);
      return { status: 201, data: hook ? { ...created, signingSecret: 'whsec_c2VjcmV0LXNob3duLW9uY2UtV1hZWg==' } : created };
    }
    if (call.method === 'GET' && call.url === '/queueIntegration/7/deliveries') {
      return { data: { deliveries: [delivery(2, { status: 'failed', attempts: 4, statusCode: 503, error: 'HTTP 503' }), delivery(1)], count: 2, hasMore: false } };
    }
    const id = Number(/^\/queueIntegration\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'PUT' && id) return { data: { ...items.find((i) => i.id === id)!, ...(call.data as object) } };
    return { data: [] };
  });
  return { items, calls };
};

const openAdd = async () => {
  fireEvent.click(await screen.findByTestId('queue-integrations-add'));
  return screen.findByTestId('queue-integration-dialog');
};

describe('/queue-integration', () => {
  it('lists the type logo, id and name of each integration', async () => {
    integrationsServer([integration(1, 'Bot de vendas'), integration(7, 'Pedidos', { type: 'n8n' })]);
    signIn({ profile: 'admin' });
    renderApp('/queue-integration');
    expect((await screen.findByTestId('queue-integration-name-1')).textContent).toBe('Bot de vendas');
    expect(screen.getByTestId('queue-integration-type-1').dataset.type).toBe('typebot');
    expect(screen.getByTestId('queue-integration-type-7').dataset.type).toBe('n8n');
    // The delivery log is for the integrations that post events.
    expect(screen.queryByTestId('queue-integration-deliveries-1')).toBeNull();
    expect(screen.getByTestId('queue-integration-deliveries-7')).toBeTruthy();
  });

  it("asks for the type's own fields and sends only them", async () => {
    const { calls } = integrationsServer([]);
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/queue-integration');
    const dialog = await openAdd();
    fireEvent.change(within(dialog).getByTestId('queue-integration-name'), { target: { value: 'Atendimento' } });
    fireEvent.click(within(dialog).getByTestId('queue-integration-save'));
    await waitFor(() => expect(within(dialog).getAllByText('Required')).toHaveLength(2)); // URL and slug
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByTestId('queue-integration-url'), { target: { value: 'https://typebot.example.com' } });
    fireEvent.change(within(dialog).getByTestId('queue-integration-slug'), { target: { value: 'atendimento-v2' } });
    fireEvent.change(within(dialog).getByTestId('queue-integration-keyword-restart'), { target: { value: 'reiniciar' } });
    fireEvent.click(within(dialog).getByTestId('queue-integration-save'));
    await waitFor(() => expect(screen.queryByTestId('queue-integration-dialog')).toBeNull());
    const sent = calls.find((c) => c.method === 'POST' && c.url === '/queueIntegration')?.data as Record<string, unknown>;
    expect(sent).toMatchObject({ type: 'typebot', name: 'Atendimento', urlN8N: 'https://typebot.example.com', typebotSlug: 'atendimento-v2', typebotKeywordRestart: 'reiniciar', typebotExpires: 1 });
    expect(sent.authSecret).toBe('');
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Integration saved.')).toBe(true);
  });

  it("the test button tries what the form holds, a saved one's secrets lent by id, and says what failed", async () => {
    const { calls } = integrationsServer([integration(7, 'Pedidos', { type: 'webhook', urlN8N: 'https://hooks.example.com/a', authType: 'header', authHeaderName: 'X-Key', hasAuthSecret: true, authSecretLast4: '9876', hasSigningSecret: true, signingSecretLast4: 'ABCD' })], {
      testReply: { ok: false, error: 'ERR_INTEGRATION_URL_REFUSED' },
    });
    signIn({ profile: 'admin' });
    renderApp('/queue-integration');
    fireEvent.click(await screen.findByTestId('queue-integration-edit-7'));
    const dialog = await screen.findByTestId('queue-integration-dialog');
    expect(within(dialog).getByText('A secret ending in 9876 is saved; leave empty to keep it.')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('queue-integration-url'), { target: { value: 'http://10.0.0.5/hook' } });
    fireEvent.click(within(dialog).getByTestId('queue-integration-test'));
    const result = await within(dialog).findByTestId('queue-integration-test-result');
    expect(result.dataset.ok).toBe('false');
    expect(result.textContent).toContain('This address is private or local and cannot be called.');
    const test = calls.find((c) => c.url === '/queueIntegration/testSession')?.data as Record<string, unknown>;
    expect(test).toMatchObject({ id: 7, type: 'webhook', urlN8N: 'http://10.0.0.5/hook', authType: 'header', authHeaderName: 'X-Key' });
    expect('authSecret' in test).toBe(false);
  });

  it("shows a new webhook's signing secret once, after saving", async () => {
    integrationsServer([]);
    signIn({ profile: 'admin' });
    renderApp('/queue-integration');
    const dialog = await openAdd();
    fireEvent.change(within(dialog).getByTestId('queue-integration-type'), { target: { value: 'webhook' } });
    fireEvent.change(within(dialog).getByTestId('queue-integration-name'), { target: { value: 'CRM' } });
    fireEvent.change(within(dialog).getByTestId('queue-integration-url'), { target: { value: 'https://crm.example.com/hook' } });
    fireEvent.click(within(dialog).getByTestId('queue-integration-save'));
    const shown = await screen.findByTestId('queue-integration-signing-secret-value');
    expect((shown as HTMLInputElement).value).toBe('whsec_c2VjcmV0LXNob3duLW9uY2UtV1hZWg==');
  });

  it('opens the delivery log of a webhook with each attempt and answer', async () => {
    integrationsServer([integration(7, 'Pedidos', { type: 'n8n' })]);
    signIn({ profile: 'admin' });
    renderApp('/queue-integration');
    fireEvent.click(await screen.findByTestId('queue-integration-deliveries-7'));
    const log = await screen.findByTestId('queue-integration-deliveries');
    expect((await within(log).findByTestId('delivery-status-2')).textContent).toBe('Failed');
    expect(within(log).getByTestId('delivery-answer-2').textContent).toBe('HTTP 503');
    expect(within(log).getByTestId('delivery-status-1').textContent).toBe('Delivered');
  });

  it('without the integrations plan flag: the notice, then home after a second, nothing asked', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { calls } = integrationsServer([integration(1, 'x')], { useIntegrations: false });
      const toasts = collectToasts();
      signIn({ profile: 'admin' });
      renderApp('/queue-integration');
      await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message === 'This company is not allowed to access this page! Redirecting you.')).toBe(true));
      await vi.advanceTimersByTimeAsync(1000);
      await waitFor(() => expect(screen.getByTestId('location').textContent).not.toBe('/queue-integration'));
      expect(calls.some((c) => c.url.startsWith('/queueIntegration'))).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
