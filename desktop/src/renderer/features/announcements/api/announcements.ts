import type { CreateAnnouncementInput, UpdateAnnouncementInput } from '@atrium/shared';
import { api, getServerUrl } from '../../../api/client';
import type { Page } from '../../../api/query';

/** An announcement as the API answers it (spec 02 section 3). */
export interface Announcement {
  id: number;
  title: string;
  text: string;
  /** 1 high, 2 medium, 3 low. */
  priority: number;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  /** A signed, expiring URL of the image, relative to the server. */
  mediaUrl: string | null;
  companyId: number;
  createdAt: string;
  updatedAt: string;
}

/** Every announcement query starts with this: a mutation invalidates them all (page and bell). */
export const ANNOUNCEMENTS_KEY = ['announcements'] as const;
export const ANNOUNCEMENTS_PAGE_KEY = ['announcements', 'page'] as const;
export const ACTIVE_ANNOUNCEMENTS_KEY = ['announcements', 'active'] as const;

export const announcementsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<Announcement>> => {
    const { data } = await api.get<{ records: Announcement[]; hasMore: boolean }>('/announcements/', {
      params: { searchParam, pageNumber },
    });
    return { items: data.records, hasMore: data.hasMore };
  },
  active: async () => (await api.get<Announcement[]>('/announcements/list')).data,
  create: async (input: CreateAnnouncementInput) => (await api.post<Announcement>('/announcements', input)).data,
  update: async (id: number, input: UpdateAnnouncementInput) => (await api.put<Announcement>(`/announcements/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/announcements/${id}`);
  },
  uploadMedia: async (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return (await api.post<Announcement>(`/announcements/${id}/media-upload`, form)).data;
  },
  removeMedia: async (id: number) => (await api.delete<Announcement>(`/announcements/${id}/media-upload`)).data,
};

/** The image's address: the server's signed URL is relative to the server. */
export const mediaHref = (url: string | null | undefined): string => {
  if (!url) return '';
  if (/^(https?:|data:|blob:)/.test(url)) return url;
  return `${getServerUrl()}${url.startsWith('/') ? '' : '/'}${url}`;
};
