import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { collectToasts, fakeServer, planReply, renderWithProviders, signIn } from '../../../test/render';
import { makeConnection } from '../test/make-connection';
import type { Connection } from '../api/connections';
import { ConnectionModal } from './connection-modal';

/** GET /queue, POST /whatsapp and PUT /whatsapp/{id}, in memory. */
const connectionsServer = () =>
  fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
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
});
