import { api } from '../../../api/client';

/** A help video (spec 01 section 3): `video` is a YouTube video id or link. */
export interface Help {
  id: number;
  title: string;
  description: string;
  video: string;
}

export const HELPS_KEY = ['helps'] as const;

export const helpsApi = {
  list: async () => (await api.get<Help[]>('/helps/list')).data,
};
