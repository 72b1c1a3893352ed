import type { UpdateCompanySchedulesInput } from '@atrium/shared';
import { api } from '../../../api/client';

export interface SettingRow {
  key: string;
  value: string;
}

export interface CompanySchedule {
  weekday?: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

export const SETTINGS_KEY = ['settings'] as const;
export const SETTINGS_PROMPTS_KEY = ['settings', 'prompts'] as const;
export const companySchedulesKey = (companyId: number | undefined) => ['company-schedules', companyId ?? null] as const;

export const settingsApi = {
  list: async () => (await api.get<SettingRow[]>('/settings')).data,
  /** The company's AI prompts, for the agents' default prompt (aiAssistPromptId). */
  prompts: async () => (await api.get<{ prompts: { id: number; name: string }[] }>('/prompt')).data.prompts,
  update: async (key: string, value: string) => (await api.put<SettingRow>(`/settings/${key}`, { key, value })).data,
  schedules: async (companyId: number) =>
    (await api.get<{ schedules?: CompanySchedule[] }>(`/companies/${companyId}`)).data.schedules ?? [],
  saveSchedules: async (companyId: number, input: UpdateCompanySchedulesInput) =>
    (await api.put<CompanySchedule[]>(`/companies/${companyId}/schedules`, input)).data,
};
