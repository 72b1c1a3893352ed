import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { collectToasts, renderWithProviders, signIn } from '../../../test/render';
import { makeQueue, queuesServer } from '../test/fake-queues-server';
import { QueueModal } from './queue-modal';

const openModal = async (queue?: Parameters<typeof QueueModal>[0]['queue']) => {
  const onClose = vi.fn();
  signIn({ profile: 'admin' });
  renderWithProviders(<QueueModal queue={queue} onClose={onClose} />);
  await screen.findByTestId('queue-modal');
  return onClose;
};

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

/** The message a Field shows under the input with this test id. */
const messageOf = (testId: string) => {
  const field = screen.getByTestId(testId).closest('.fui-Field');
  return field?.querySelector('.fui-Field__validationMessage')?.textContent ?? '';
};

describe('queue modal: validation (spec 02 section 5, shared createQueueSchema)', () => {
  it('name and colour are required', async () => {
    const { calls } = queuesServer();
    await openModal();
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(messageOf('queue-name')).toBe('Required'));
    expect(messageOf('queue-color')).toBe('Required');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('name 2 to 50 and colour 3 to 9 characters', async () => {
    const { calls } = queuesServer();
    await openModal();
    type('queue-name', 'A');
    type('queue-color', '#a');
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(messageOf('queue-name')).toBe('Too short (at least 2 characters)'));
    expect(messageOf('queue-color')).toBe('Too short (at least 3 characters)');
    type('queue-color', '#1234567890');
    type('queue-name', 'x'.repeat(51));
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(messageOf('queue-name')).toBe('Too long (at most 50 characters)'));
    expect(messageOf('queue-color')).toBe('Too long (at most 9 characters)');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('an edited field loses its message', async () => {
    queuesServer();
    await openModal();
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(messageOf('queue-name')).toBe('Required'));
    type('queue-name', 'Sales');
    await waitFor(() => expect(messageOf('queue-name')).toBe(''));
  });

  it('requires a greeting when the company would have more than one queue', async () => {
    const { calls } = queuesServer({ queues: [makeQueue(1)] });
    await openModal();
    type('queue-name', 'Second');
    type('queue-color', '#00ff00');
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(messageOf('queue-greeting')).toBe('Required when the company has more than one queue'));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    type('queue-greeting', 'Welcome');
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/queue')).toBe(true));
  });

  it('does not require a greeting for the company’s only queue', async () => {
    const { calls } = queuesServer({ queues: [makeQueue(1, { name: 'Only' })] });
    const onClose = await openModal(makeQueue(1, { name: 'Only', greetingMessage: '' }));
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/queue/1')).toBe(true));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('the colour picker fills the hex text', async () => {
    queuesServer();
    await openModal();
    fireEvent.input(screen.getByTestId('queue-color-picker'), { target: { value: '#3366ff' } });
    fireEvent.change(screen.getByTestId('queue-color-picker'), { target: { value: '#3366ff' } });
    await waitFor(() => expect((screen.getByTestId('queue-color') as HTMLInputElement).value).toBe('#3366ff'));
  });
});

describe('queue modal: server errors go through the error toast', () => {
  it('a duplicated colour shows ERR_QUEUE_COLOR_ALREADY_EXISTS translated and keeps the modal open', async () => {
    const { calls } = queuesServer({ queueError: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
    const toasts = collectToasts();
    const onClose = await openModal();
    type('queue-name', 'Sales');
    type('queue-color', '#ff0000');
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(toasts.find((t) => t.intent === 'error')).toMatchObject({ message: 'This colour is already in use; pick another one.', timeout: 2000 });
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('queue-modal')).toBeTruthy();
  });

  it.each([
    ['ERR_QUEUE_NAME_ALREADY_EXISTS', 'A queue with this name already exists.'],
    ['ERR_WAPP_GREETING_REQUIRED', 'A greeting message is required when there is more than one queue.'],
  ])('%s is shown translated', async (code, message) => {
    queuesServer({ queues: [makeQueue(1)], queueError: code });
    const toasts = collectToasts();
    await openModal(makeQueue(1, { greetingMessage: 'Hi' }));
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message === message)).toBe(true));
  });
});

describe('queue modal: attendance time tab (spec 02 section 2)', () => {
  it.each(['disabled', 'company'])('is hidden when scheduleType is %s, and no schedules are sent', async (scheduleType) => {
    const { calls } = queuesServer({ scheduleType });
    await openModal();
    await waitFor(() => expect(calls.some((c) => c.url === '/settings')).toBe(true));
    expect(screen.getByTestId('queue-tab-data')).toBeTruthy();
    expect(screen.queryByTestId('queue-tab-schedules')).toBeNull();
    type('queue-name', 'Sales');
    type('queue-color', '#ff0000');
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).not.toHaveProperty('schedules');
  });

  it('shows when scheduleType is queue, with the default hours for a new queue, and sends the seven days', async () => {
    const { calls } = queuesServer({ scheduleType: 'queue' });
    await openModal();
    fireEvent.click(await screen.findByTestId('queue-tab-schedules'));
    await screen.findByTestId('queue-schedules');
    const value = (id: string) => (screen.getByTestId(id) as HTMLInputElement).value;
    expect([value('queue-schedule-monday-start'), value('queue-schedule-monday-end')]).toEqual(['08:00', '18:00']);
    expect([value('queue-schedule-friday-start'), value('queue-schedule-friday-end')]).toEqual(['08:00', '18:00']);
    expect([value('queue-schedule-saturday-start'), value('queue-schedule-saturday-end')]).toEqual(['08:00', '12:00']);
    expect([value('queue-schedule-sunday-start'), value('queue-schedule-sunday-end')]).toEqual(['00:00', '00:00']);
    expect(screen.getByLabelText('Monday start')).toBeTruthy();
    type('queue-schedule-monday-start', '09:30');
    fireEvent.click(screen.getByTestId('queue-tab-data'));
    type('queue-name', 'Sales');
    type('queue-color', '#ff0000');
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const schedules = (calls.find((c) => c.method === 'POST')?.data as { schedules: { weekdayEn: string; startTime: string; endTime: string }[] })
      .schedules;
    expect(schedules.map((s) => s.weekdayEn)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(schedules[0]).toMatchObject({ startTime: '09:30', endTime: '18:00' });
    expect(schedules[6]).toMatchObject({ startTime: '00:00', endTime: '00:00' });
  });

  it('shows a saved queue’s own hours', async () => {
    queuesServer({ scheduleType: 'queue', queues: [makeQueue(1)] });
    await openModal(makeQueue(1, { schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '07:15', endTime: '16:45' }] }));
    fireEvent.click(await screen.findByTestId('queue-tab-schedules'));
    expect((screen.getByTestId('queue-schedule-monday-start') as HTMLInputElement).value).toBe('07:15');
    expect((screen.getByTestId('queue-schedule-monday-end') as HTMLInputElement).value).toBe('16:45');
    expect((screen.getByTestId('queue-schedule-tuesday-start') as HTMLInputElement).value).toBe('08:00');
  });
});

describe('queue modal: integration and prompt selects', () => {
  it('are not asked for when the plan has neither integrations nor AI', async () => {
    const { calls } = queuesServer({ integrations: [{ id: 4, name: 'Typebot' }], prompts: [{ id: 8, name: 'Assistant' }] });
    await openModal();
    await screen.findByTestId('queue-name');
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/companies/listPlan/'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((c) => c.url === '/queueIntegration' || c.url === '/prompt')).toBe(false);
    expect(screen.queryByTestId('queue-integration')).toBeNull();
    expect(screen.queryByTestId('queue-prompt')).toBeNull();
  });

  it('are hidden while GET /queueIntegration and GET /prompt answer 404, without an error toast', async () => {
    const { calls } = queuesServer({ plan: { useIntegrations: true, useOpenAi: true } });
    const toasts = collectToasts();
    await openModal();
    await waitFor(() => expect(calls.some((c) => c.url === '/queueIntegration') && calls.some((c) => c.url === '/prompt')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('queue-integration')).toBeNull();
    expect(screen.queryByTestId('queue-prompt')).toBeNull();
    expect(toasts.filter((t) => t.intent === 'error')).toEqual([]);
  });

  it('show the integrations and prompts the server lists and send the choice', async () => {
    const { calls } = queuesServer({
      queues: [makeQueue(1, { greetingMessage: 'Hi' })],
      integrations: [{ id: 4, name: 'Typebot' }],
      prompts: [{ id: 8, name: 'Assistant' }],
      plan: { useIntegrations: true, useOpenAi: true },
    });
    await openModal(makeQueue(1, { greetingMessage: 'Hi', promptId: 8 }));
    const integration = (await screen.findByTestId('queue-integration')) as HTMLSelectElement;
    expect([...integration.options].map((o) => o.textContent)).toEqual(['None', 'Typebot']);
    expect((screen.getByTestId('queue-prompt') as HTMLSelectElement).value).toBe('8');
    fireEvent.change(integration, { target: { value: '4' } });
    fireEvent.change(screen.getByTestId('queue-prompt'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.data).toMatchObject({ integrationId: 4, promptId: null });
  });
});
