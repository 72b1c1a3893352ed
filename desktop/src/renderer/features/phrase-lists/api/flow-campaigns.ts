import type { CreateFlowCampaignInput, FlowCampaignView, UpdateFlowCampaignInput } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

export type FlowCampaign = FlowCampaignView;

export const FLOW_CAMPAIGNS_KEY = ['flowcampaign'] as const;

/** GET/POST/PUT/DELETE /flowcampaign (spec 02 section 7); the list is not paged. */
export const flowCampaignsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<FlowCampaign>> => {
    if (pageNumber > 1) return { items: [], hasMore: false };
    const { data } = await api.get<{ flow: FlowCampaign[] }>('/flowcampaign', { params: { searchParam } });
    return { items: data.flow, hasMore: false };
  },
  create: async (input: CreateFlowCampaignInput) => (await api.post<FlowCampaign>('/flowcampaign', input)).data,
  update: async (id: number, input: Omit<UpdateFlowCampaignInput, 'id'>) => (await api.put<FlowCampaign>('/flowcampaign', { id, ...input })).data,
  remove: async (id: number) => {
    await api.delete(`/flowcampaign/${id}`);
  },
  /** The company's flows for the dialog's choice (every page of GET /flowbuilder). */
  flows: async () => {
    const all: { id: number; name: string }[] = [];
    for (let page = 1; page <= 50; page += 1) {
      const { data } = await api.get<{ flows: { id: number; name: string }[]; hasMore: boolean }>('/flowbuilder', { params: { pageNumber: page } });
      all.push(...data.flows);
      if (!data.hasMore) break;
    }
    return all;
  },
  connections: async () => (await api.get<{ id: number; name: string }[]>('/whatsapp/', { params: { session: 0 } })).data,
};
