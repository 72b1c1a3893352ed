import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { collectToasts, fakeServer, planReply, renderWithProviders, signIn } from '../../../test/render';
import { makeConnection } from '../test/make-connection';
import type { Connection } from '../api/connections';
import { ConnectionModal } from './connection-modal';

/** GET /queue, POST /whatsapp and PUT /whatsapp/{id}, in memory (the plan's flags as given). */
const connectionsServer = (flags: Record<string, boolean> = {}) =>
  fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply(flags);
    if (call.method === 'GET' && call.url === '/queueIntegration') return { data: { queueIntegrations: [{ id: 6, name: 'Typebot vendas' }], count: 1, hasMore: false } };
    if (call.method === 'GET' && call.url === '/prompt') return { data: { prompts: [{ id: 8, name: 'Assistente' }], count: 1, hasMore: false } };
    if (call.method === 'GET' && call.url === '/queue') {
      return { data: [{ id: 1, name: 'Sales', color: '#f00' }, { id: 2, name: 'Support', color: '#0f0' }] };
    }
    if (call.method === 'POST' && call.url === '/whatsapp') return { status: 201, data: makeConnection(9) };
    if (call.method === 'PUT' && call.url.startsWith('/whatsapp/')) return { data: makeConnection(Number(call.url.split('/')[2])) };
    return { data: [] };
  });

const openModal = async (connection?: Connection) => {
  const onClose = vi.fn();
  signIn({ profile: 'admin' });
  renderWithProviders(<ConnectionModal connection={connection} onClose={onClose} />);
  await screen.findByTestId('connection-modal');
  return onClose;
};

/** The message the Field around this control shows. */
const messageOf = (control: HTMLElement) => control.closest('.fui-Field')?.querySelector('.fui-Field__validationMessage')?.textContent ?? '';
const greetingBox = () => screen.getByLabelText('Greeting message');

describe('connection dialog (shared createConnectionFormSchema / updateConnectionFormSchema)', () => {
  it('asks for a greeting when more than one queue is chosen, beside the other fields’ messages, and sends nothing', async () => {
    const calls = connectionsServer();
    await openModal(makeConnection(4, { name: 'Main', queueIds: [1, 2], greetingMessage: '' }));
    fireEvent.change(screen.getByTestId('connection-name'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(messageOf(greetingBox())).toBe('Required when more than one queue is chosen'));
    expect(messageOf(screen.getByTestId('connection-name'))).toBe('Required');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('saves once the greeting is written (PUT /whatsapp/{id}) and closes with the success toast', async () => {
    const calls = connectionsServer();
    const toasts = collectToasts();
    const onClose = await openModal(makeConnection(4, { name: 'Main', queueIds: [1, 2], greetingMessage: '' }));
    fireEvent.change(greetingBox(), { target: { value: 'Choose a queue' } });
    fireEvent.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/whatsapp/4', data: { name: 'Main', queueIds: [1, 2], greetingMessage: 'Choose a queue' } });
    expect(calls.find((c) => c.method === 'PUT')?.data).not.toHaveProperty('provider');
    expect(toasts.some((t) => t.intent === 'success')).toBe(true);
  });

  it('adds one with one queue or none without a greeting, sending the chosen provider', async () => {
    const calls = connectionsServer();
    const onClose = await openModal();
    fireEvent.change(screen.getByTestId('connection-name'), { target: { value: 'Sandbox phone' } });
    fireEvent.change(screen.getByTestId('connection-provider'), { target: { value: 'sandbox' } });
    fireEvent.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/whatsapp',
      data: { name: 'Sandbox phone', provider: 'sandbox', queueIds: [], greetingMessage: '', maxUseBotQueues: 3, transferQueueId: null },
    });
  });

  it("names the connection's integration and prompt when the plan has them, and sends them", async () => {
    const calls = connectionsServer({ useIntegrations: true, useOpenAi: true });
    const onClose = await openModal(makeConnection(4, { name: 'Main', integrationId: 6 }));
    await waitFor(() => expect(screen.getByTestId('connection-prompt').querySelectorAll('option')).toHaveLength(2));
    expect((screen.getByTestId('connection-integration') as HTMLSelectElement).value).toBe('6');
    fireEvent.change(screen.getByTestId('connection-integration'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('connection-prompt'), { target: { value: '8' } });
    fireEvent.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')?.data).toMatchObject({ integrationId: null, promptId: 8 });
  });

  it('without those plan flags, neither select shows nor is sent', async () => {
    const calls = connectionsServer();
    const onClose = await openModal(makeConnection(4, { name: 'Main', integrationId: 6 }));
    fireEvent.click(screen.getByTestId('connection-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByTestId('connection-integration')).toBeNull();
    expect(calls.find((c) => c.method === 'PUT')?.data).not.toHaveProperty('integrationId');
    expect(calls.some((c) => c.url === '/prompt' || c.url === '/queueIntegration')).toBe(false);
  });
});
