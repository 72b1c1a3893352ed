import type {
  CampaignReportFilter,
  CampaignReportView,
  CampaignSettingRow,
  CampaignShippingView,
  CampaignView,
  CreateCampaignInput,
  SaveCampaignSettingsInput,
  UpdateCampaignInput,
} from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';
import { downloadFromApi } from '../../../components/download';

export type Campaign = CampaignView;
export type CampaignReport = CampaignReportView;
export type CampaignShipping = CampaignShippingView;

/** Every key of the campaigns; realtime `campaign` events and saves reload under it. */
export const CAMPAIGNS_KEY = ['campaigns'] as const;
export const CAMPAIGN_SETTINGS_KEY = ['campaign-settings'] as const;

/** A choice of the dialog: a connection, a contact list, a tag or a file list. */
export interface Option {
  id: number;
  name: string;
}

export const campaignsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<Campaign>> => {
    const { data } = await api.get<{ records: Campaign[]; hasMore: boolean }>('/campaigns/', { params: { searchParam, pageNumber } });
    return { items: data.records, hasMore: data.hasMore };
  },
  get: async (id: number) => (await api.get<Campaign>(`/campaigns/${id}`)).data,
  create: async (input: CreateCampaignInput) => (await api.post<Campaign>('/campaigns', input)).data,
  update: async (id: number, input: UpdateCampaignInput) => (await api.put<Campaign>(`/campaigns/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/campaigns/${id}`);
  },
  uploadMedia: async (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return (await api.post<Campaign>(`/campaigns/${id}/media-upload`, form)).data;
  },
  removeMedia: async (id: number) => (await api.delete<Campaign>(`/campaigns/${id}/media-upload`)).data,
  cancel: async (id: number) => {
    await api.post(`/campaigns/${id}/cancel`);
  },
  restart: async (id: number) => {
    await api.post(`/campaigns/${id}/restart`);
  },
  report: async (id: number) => (await api.get<CampaignReport>(`/campaigns/${id}/report`)).data,
  shipping: async (id: number, status: CampaignReportFilter | '', searchParam: string, pageNumber: number): Promise<Page<CampaignShipping>> => {
    const { data } = await api.get<{ records: CampaignShipping[]; hasMore: boolean }>(`/campaigns/${id}/shipping`, {
      params: { searchParam, pageNumber, ...(status ? { status } : {}) },
    });
    return { items: data.records, hasMore: data.hasMore };
  },
  exportShipping: (id: number, status: CampaignReportFilter | '', searchParam: string) =>
    downloadFromApi(`/campaigns/${id}/shipping/export`, `campanha-${id}.csv`, { searchParam, ...(status ? { status } : {}) }),
  settings: async () => (await api.get<CampaignSettingRow[]>('/campaign-settings')).data,
  saveSettings: async (input: SaveCampaignSettingsInput) => (await api.post<CampaignSettingRow[]>('/campaign-settings', input)).data,
};

/** What the dialog offers (spec 02 section 7: GET /whatsapp, /contact-lists/list, /tags/list, /files/). */
export const choicesApi = {
  connections: async (): Promise<Option[]> => (await api.get<Option[]>('/whatsapp/', { params: { session: 0 } })).data,
  contactLists: async (): Promise<Option[]> => (await api.get<Option[]>('/contact-lists/list')).data,
  tags: async (): Promise<Option[]> => (await api.get<Option[]>('/tags/list')).data,
  fileLists: async (): Promise<Option[]> => (await api.get<{ files: Option[] }>('/files/', { params: { searchParam: '', pageNumber: 1 } })).data.files,
};
