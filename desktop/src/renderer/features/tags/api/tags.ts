import type { CreateTagInput, UpdateTagInput } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

/** A tag as GET /tags/ answers it (spec 02 section 3). */
export interface Tag {
  id: number;
  name: string;
  color: string;
  kanban: number;
  userId: number | null;
  ticketsCount?: number;
}

/** The paged list; the tickets feature reads every tag under ['tags', 'list']. */
export const TAGS_KEY = ['tags'] as const;

export const tagsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<Tag>> => {
    const { data } = await api.get<{ tags: Tag[]; hasMore: boolean }>('/tags/', { params: { searchParam, pageNumber } });
    return { items: data.tags, hasMore: data.hasMore };
  },
  create: async (input: CreateTagInput) => (await api.post<Tag>('/tags', input)).data,
  update: async (id: number, input: UpdateTagInput) => (await api.put<Tag>(`/tags/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/tags/${id}`);
  },
};
