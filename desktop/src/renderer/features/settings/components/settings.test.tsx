import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';

const serve = (scheduleType: string, flags: Record<string, boolean> = {}) =>
  fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply(flags);
    if (call.url === '/prompt') return { data: { prompts: [{ id: 4, name: 'Assistente' }], count: 1, hasMore: false } };
    if (call.url === '/settings' && call.method === 'GET') return { data: [{ key: 'scheduleType', value: scheduleType }] };
    if (call.url.startsWith('/settings/')) return { data: { key: 'x', value: 'y' } };
    if (call.url === '/companies/3') return { data: { id: 3, schedules: [] } };
    if (call.url === '/companies/3/schedules') return { data: [] };
    return { data: [] };
  });

describe('settings page', () => {
  it.each(['disabled', 'queue'])('has no Schedules tab when scheduleType is %s', async (value) => {
    serve(value);
    signIn();
    renderApp('/settings');
    await screen.findByTestId('setting-scheduleType');
    expect(screen.queryByTestId('settings-tab-schedules')).toBeNull();
  });

  it('shows the Schedules tab for scheduleType company and saves 7 weekdays', async () => {
    const calls = serve('company');
    const toasts = collectToasts();
    signIn();
    renderApp('/settings');
    fireEvent.click(await screen.findByTestId('settings-tab-schedules'));
    await screen.findByTestId('schedules-form');
    fireEvent.change(screen.getByLabelText('monday start'), { target: { value: '08:00' } });
    fireEvent.click(screen.getByText('Save schedules'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/companies/3/schedules')).toBe(true));
    const body = calls.find((c) => c.url === '/companies/3/schedules')?.data as { schedules: { weekdayEn: string; startTime: string }[] };
    expect(body.schedules).toHaveLength(7);
    expect(body.schedules[0]).toMatchObject({ weekdayEn: 'monday', startTime: '08:00' });
    await waitFor(() => expect(toasts.some((t) => t.message === 'Schedules updated successfully.')).toBe(true));
  });

  it('saves an option through PUT /settings/{key} with the settings-updated toast', async () => {
    const calls = serve('disabled');
    const toasts = collectToasts();
    signIn();
    renderApp('/settings');
    fireEvent.change(await screen.findByTestId('setting-userRating'), { target: { value: 'enabled' } });
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/settings/userRating')).toBe(true));
    expect(calls.find((c) => c.url === '/settings/userRating')?.data).toEqual({ key: 'userRating', value: 'enabled' });
    await waitFor(() => expect(toasts.some((t) => t.message === 'Settings updated successfully.')).toBe(true));
  });

  it("chooses the agents' default AI prompt when the plan has AI", async () => {
    const calls = serve('disabled', { useOpenAi: true });
    signIn({ profile: 'admin' });
    renderApp('/settings');
    const select = await screen.findByTestId('setting-aiAssistPromptId');
    expect(screen.getByTestId('setting-aiSummaryOnTransfer')).toBeTruthy();
    fireEvent.change(select, { target: { value: '4' } });
    await waitFor(() => expect(calls.find((c) => c.url === '/settings/aiAssistPromptId')?.data).toEqual({ key: 'aiAssistPromptId', value: '4' }));
  });

  it('offers no AI settings without the AI plan flag', async () => {
    const calls = serve('disabled');
    signIn({ profile: 'admin' });
    renderApp('/settings');
    await screen.findByTestId('setting-userRating');
    expect(screen.queryByTestId('setting-aiAssistPromptId')).toBeNull();
    expect(screen.queryByTestId('setting-aiSummaryOnTransfer')).toBeNull();
    expect(calls.some((c) => c.url === '/prompt')).toBe(false);
  });
});
