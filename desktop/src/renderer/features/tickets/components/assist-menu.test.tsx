import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { collectToasts, fakeServer, planReply, renderWithProviders, signIn } from '../../../test/render';
import { MessageInput } from './message-input';

/** The plan, the assist endpoints and the message send, in memory. */
const assistServer = ({ useOpenAi = true, available = true, failing = false } = {}) =>
  fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply({ useOpenAi });
    if (call.url === '/quick-messages/list') return { data: [] };
    if (call.method === 'GET' && call.url === '/prompt/assist') return { data: { available, promptId: available ? 4 : null } };
    if (failing && call.url.startsWith('/prompt/assist/')) return { status: 502, data: { error: 'ERR_AI_UNAVAILABLE', reason: 'ERR_AI_QUOTA' } };
    if (call.method === 'POST' && call.url === '/prompt/assist/suggest') return { data: { suggestion: 'Olá Maria, seu pedido sai hoje.' } };
    if (call.method === 'POST' && call.url === '/prompt/assist/summary') return { data: { summary: 'A cliente quer saber do pedido 123.\nNada pendente.' } };
    return undefined;
  });

const renderInput = () => {
  signIn({ profile: 'user' });
  renderWithProviders(<MessageInput ticketId={5} status="open" replyTo={null} onCancelReply={() => undefined} />);
};

describe('the AI assistant in the conversation', () => {
  it('puts a suggested reply in the input, for the agent to send, and sends nothing by itself', async () => {
    const calls = assistServer();
    renderInput();
    fireEvent.click(await screen.findByTestId('assist-menu'));
    fireEvent.click(await screen.findByTestId('assist-suggest'));
    await waitFor(() => expect((screen.getByTestId('message-input') as HTMLTextAreaElement).value).toBe('Olá Maria, seu pedido sai hoje.'));
    expect(calls.find((c) => c.url === '/prompt/assist/suggest')?.data).toEqual({ ticketId: 5 });
    expect(calls.some((c) => c.url.startsWith('/messages/'))).toBe(false);
    expect(calls.find((c) => c.url === '/prompt/assist')?.params).toEqual({ ticketId: 5 });
  });

  it('shows a summary of the conversation', async () => {
    assistServer();
    renderInput();
    fireEvent.click(await screen.findByTestId('assist-menu'));
    fireEvent.click(await screen.findByTestId('assist-summarise'));
    expect((await screen.findByTestId('assist-summary-text')).textContent).toBe('A cliente quer saber do pedido 123.\nNada pendente.');
  });

  it('says why when the AI fails, leaving the input as it was', async () => {
    assistServer({ failing: true });
    const toasts = collectToasts();
    renderInput();
    fireEvent.change(screen.getByTestId('message-input'), { target: { value: 'meu rascunho' } });
    fireEvent.click(await screen.findByTestId('assist-menu'));
    fireEvent.click(await screen.findByTestId('assist-suggest'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message === 'The AI did not answer. Try again in a moment.')).toBe(true));
    expect((screen.getByTestId('message-input') as HTMLTextAreaElement).value).toBe('meu rascunho');
  });

  it('is not offered when no prompt applies to the ticket', async () => {
    const calls = assistServer({ available: false });
    renderInput();
    await waitFor(() => expect(calls.some((c) => c.url === '/prompt/assist')).toBe(true));
    expect(screen.queryByTestId('assist-menu')).toBeNull();
  });

  it('asks nothing when the plan has no AI', async () => {
    const calls = assistServer({ useOpenAi: false });
    renderInput();
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/companies/listPlan/'))).toBe(true));
    await screen.findByTestId('message-input');
    expect(calls.some((c) => c.url === '/prompt/assist')).toBe(false);
    expect(screen.queryByTestId('assist-menu')).toBeNull();
  });
});
