import type { CreateHelpInput, UpdateHelpInput } from '@atrium/shared';
import { api } from '../../../api/client';

/** A help video: `video` is a YouTube video id or link. */
export interface HelpRow {
  id: number;
  title: string;
  description: string;
  video: string;
}

/** The same list the /helps page reads: a change here refreshes it too. */
export const HELPS_KEY = ['helps'] as const;

export const helpsApi = {
  list: async () => (await api.get<HelpRow[]>('/helps/list')).data,
  create: async (input: CreateHelpInput) => (await api.post<HelpRow>('/helps', input)).data,
  update: async (id: number, input: UpdateHelpInput) => (await api.put<HelpRow>(`/helps/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/helps/${id}`);
  },
};
