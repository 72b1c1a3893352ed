import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FlowCampaignView } from '@atrium/shared';
import { fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { usePreferences } from '../../../stores/preferences-store';

const campaign = (id: number, name: string, extra: Partial<FlowCampaignView> = {}): FlowCampaignView => ({
  id,
  name,
  flowId: 1,
  whatsappId: 2,
  phrase: 'quero ajuda',
  status: true,
  matchType: 'exact',
  companyId: 1,
  flow: { id: 1, name: 'Atendimento', active: true },
  whatsapp: { id: 2, name: 'Loja' },
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
  ...extra,
});

/** /flowcampaign in memory. */
const campaignsServer = (initial: FlowCampaignView[]) => {
  const campaigns = [...initial];
  const calls = fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    if (call.method === 'GET' && call.url === '/flowcampaign') return { data: { flow: campaigns } };
    if (call.method === 'GET' && call.url === '/flowbuilder') return { data: { flows: [{ id: 1, name: 'Atendimento' }], hasMore: false } };
    if (call.method === 'GET' && call.url === '/whatsapp/') return { data: [{ id: 2, name: 'Loja' }] };
    if (call.method === 'POST' && call.url === '/flowcampaign') {
      const body = call.data as FlowCampaignView;
      const created = campaign(50 + campaigns.length, body.name, { phrase: body.phrase, flowId: body.flowId, whatsappId: body.whatsappId });
      campaigns.push(created);
      return { status: 201, data: created };
    }
    if (call.method === 'PUT' && call.url === '/flowcampaign') {
      const body = call.data as Partial<FlowCampaignView> & { id: number };
      const found = campaigns.find((c) => c.id === body.id)!;
      Object.assign(found, body);
      return { data: found };
    }
    const id = Number(/^\/flowcampaign\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'DELETE' && id) {
      campaigns.splice(campaigns.findIndex((c) => c.id === id), 1);
      return { data: { message: 'Flow campaign deleted' } };
    }
    return { data: [] };
  });
  return { campaigns, calls };
};

beforeEach(() => usePreferences.setState({ cshow: true }));

describe('/phrase-lists (flow campaigns)', () => {
  it('lists campaigns with their phrase, flow and connection; the status toggle saves', async () => {
    const { calls } = campaignsServer([campaign(1, 'Promo'), campaign(2, 'Inverno', { status: false })]);
    signIn({ profile: 'admin' });
    renderApp('/phrase-lists');
    const row = await screen.findByTestId('flow-campaign-row-1');
    expect(row.textContent).toContain('quero ajuda');
    expect(row.textContent).toContain('Atendimento');
    expect(row.textContent).toContain('Loja');
    const toggle = screen.getByTestId('flow-campaign-status-2') as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && (c.data as { id: number; status: boolean }).status === true)).toBe(true));
  });

  it('a new campaign needs a name, a flow, a connection and a phrase', async () => {
    const { campaigns } = campaignsServer([]);
    signIn({ profile: 'admin' });
    renderApp('/phrase-lists');
    fireEvent.click(await screen.findByTestId('flow-campaigns-add'));
    const dialog = await screen.findByTestId('flow-campaign-dialog');
    fireEvent.click(within(dialog).getByTestId('flow-campaign-dialog-save'));
    expect((await within(dialog).findAllByText('Required')).length).toBeGreaterThanOrEqual(2);
    expect(campaigns).toHaveLength(0);
    fireEvent.change(within(dialog).getByTestId('flow-campaign-name'), { target: { value: 'Black Friday' } });
    fireEvent.change(within(dialog).getByTestId('flow-campaign-phrase'), { target: { value: 'black friday' } });
    fireEvent.click(within(dialog).getByTestId('flow-campaign-flow'));
    fireEvent.click(await screen.findByRole('option', { name: 'Atendimento' }));
    fireEvent.click(within(dialog).getByTestId('flow-campaign-connection'));
    fireEvent.click(await screen.findByRole('option', { name: 'Loja' }));
    fireEvent.click(within(dialog).getByTestId('flow-campaign-dialog-save'));
    await waitFor(() => expect(campaigns).toHaveLength(1));
    expect(campaigns[0]).toMatchObject({ name: 'Black Friday', phrase: 'black friday', flowId: 1, whatsappId: 2 });
  });

  it('delete shows only where the contacts-delete permission allows', async () => {
    campaignsServer([campaign(1, 'Promo')]);
    signIn({ profile: 'user' });
    renderApp('/phrase-lists');
    await screen.findByTestId('flow-campaign-row-1');
    expect(screen.queryByTestId('flow-campaign-delete-1')).toBeNull();
    expect(screen.queryByTestId('flow-campaigns-add')).toBeNull();
  });
});
