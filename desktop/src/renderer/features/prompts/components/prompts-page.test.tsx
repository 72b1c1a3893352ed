import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PromptView } from '@atrium/shared';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';

const prompt = (id: number, name: string, extra: Partial<PromptView> = {}): PromptView => ({
  id,
  name,
  prompt: 'Você atende a padaria Pão Quente. Responda sobre preços e horários com cordialidade.',
  model: 'gpt-4.1-mini',
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  queueId: 5,
  queue: { id: 5, name: 'Vendas', color: '#336699' },
  hasApiKey: true,
  apiKeyLast4: 'WXYZ',
  companyId: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

/** /prompt and /queue in memory, as the server answers them. */
const promptsServer = (initial: PromptView[], flags: Record<string, boolean> = { useOpenAi: true }) => {
  const prompts = [...initial];
  const calls = fakeServer(async (call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply(flags);
    if (call.method === 'GET' && call.url === '/prompt') return { data: { prompts, count: prompts.length, hasMore: false } };
    if (call.method === 'GET' && call.url === '/queue') return { data: [{ id: 5, name: 'Vendas', color: '#336699' }] };
    if (call.method === 'GET' && call.url === '/prompt/usage') {
      const month = new Date().toISOString().slice(0, 7);
      const row = { model: 'gpt-4.1-mini', promptTokens: 0, completionTokens: 0 };
      return {
        data: {
          usage: [
            { ...row, month, kind: 'reply', requests: 3, totalTokens: 1200 },
            { ...row, month, kind: 'summary', requests: 1, totalTokens: 300 },
            { ...row, month: '2001-01', kind: 'reply', requests: 9, totalTokens: 9999 },
          ],
        },
      };
    }
    if (call.method === 'POST' && call.url === '/prompt') {
      const created = prompt(40, (call.data as { name: string }).name);
      prompts.push(created);
      return { status: 201, data: created };
    }
    const id = Number(/^\/prompt\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'PUT' && id) return { data: { ...prompts.find((p) => p.id === id)!, ...(call.data as object) } };
    return { data: [] };
  });
  return { prompts, calls };
};

describe('/prompts', () => {
  it('lists name, queue and max tokens; the key never shows', async () => {
    promptsServer([prompt(1, 'Assistente padaria')]);
    signIn({ profile: 'admin' });
    renderApp('/prompts');
    expect((await screen.findByTestId('prompt-name-1')).textContent).toBe('Assistente padaria');
    expect(screen.getByTestId('prompt-queue-1').textContent).toBe('Vendas');
    expect(document.body.textContent).not.toContain('WXYZ');
    // This month's use, whatever the prompt or kind; earlier months apart.
    expect((await screen.findByTestId('prompts-usage')).textContent).toBe('This month: 1,500 tokens in 4 requests');
  });

  it('checks the form as the spec says and saves nothing without a queue', async () => {
    const { calls } = promptsServer([]);
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/prompts');
    fireEvent.click(await screen.findByTestId('prompts-add'));
    const dialog = await screen.findByTestId('prompt-dialog');
    fireEvent.change(within(dialog).getByTestId('prompt-name'), { target: { value: 'abc' } });
    fireEvent.change(within(dialog).getByTestId('prompt-text'), { target: { value: 'curto' } });
    fireEvent.click(within(dialog).getByTestId('prompt-save'));
    await within(dialog).findByText('Choose the queue (sector) the conversation goes to.');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByTestId('prompt-name'), { target: { value: 'Assistente da loja' } });
    fireEvent.change(within(dialog).getByTestId('prompt-text'), { target: { value: 'Você atende a loja. Responda sobre horários, preços e entregas sempre com educação.' } });
    fireEvent.change(within(dialog).getByTestId('prompt-api-key'), { target: { value: 'sk-test-12345678' } });
    await waitFor(() => expect(within(dialog).getByTestId('prompt-queue').querySelectorAll('option')).toHaveLength(2));
    fireEvent.change(within(dialog).getByTestId('prompt-queue'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByTestId('prompt-save'));
    await waitFor(() => expect(screen.queryByTestId('prompt-dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST' && c.url === '/prompt')?.data).toEqual({
      name: 'Assistente da loja',
      prompt: 'Você atende a loja. Responda sobre horários, preços e entregas sempre com educação.',
      model: 'gpt-4.1-mini',
      maxTokens: 100,
      temperature: 1,
      apiKey: 'sk-test-12345678',
      queueId: 5,
      maxMessages: 10,
    });
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Prompt saved.')).toBe(true);
  });

  it('edits without sending the key unless a new one is typed; a retiring model is flagged', async () => {
    const { calls } = promptsServer([prompt(1, 'Assistente padaria', { model: 'gpt-3.5-turbo-1106' })]);
    signIn({ profile: 'admin' });
    renderApp('/prompts');
    fireEvent.click(await screen.findByTestId('prompt-edit-1'));
    const dialog = await screen.findByTestId('prompt-dialog');
    expect(within(dialog).getByText('A key ending in WXYZ is saved; leave empty to keep it.')).toBeTruthy();
    expect(within(dialog).getByText('The provider retires this model on 2026-10-23: choose another.')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('prompt-name'), { target: { value: 'Assistente novo' } });
    fireEvent.click(within(dialog).getByTestId('prompt-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const sent = calls.find((c) => c.method === 'PUT')!.data as Record<string, unknown>;
    expect(sent.name).toBe('Assistente novo');
    expect('apiKey' in sent).toBe(false);
  });

  it('without the AI plan flag: the notice, then home after a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { calls } = promptsServer([prompt(1, 'x')], { useOpenAi: false });
      const toasts = collectToasts();
      signIn({ profile: 'admin' });
      renderApp('/prompts');
      await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message === 'This company is not allowed to access this page! Redirecting you.')).toBe(true));
      expect(screen.getByTestId('location').textContent).toBe('/prompts');
      await vi.advanceTimersByTimeAsync(1000);
      await waitFor(() => expect(screen.getByTestId('location').textContent).not.toBe('/prompts'));
      expect(calls.some((c) => c.url === '/prompt')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
