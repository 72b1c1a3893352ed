import type { CreateQuickMessageInput, UpdateQuickMessageInput } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

/** A quick message as GET /quick-messages answers it (spec 02 section 3). */
export interface QuickMessage {
  id: number;
  shortcode: string;
  message: string;
  /** Shared with the whole company. */
  geral: boolean;
  status: boolean;
  isMedia: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl?: string | null;
  userId: number | null;
}

/** The page's lists; the tickets feature reads the unpaged list under its own key. */
export const QUICK_MESSAGES_KEY = ['quick-messages'] as const;

export const quickMessagesApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<QuickMessage>> => {
    const { data } = await api.get<{ records: QuickMessage[]; hasMore: boolean }>('/quick-messages', {
      params: { searchParam, pageNumber },
    });
    return { items: data.records, hasMore: data.hasMore };
  },
  create: async (input: CreateQuickMessageInput) => (await api.post<QuickMessage>('/quick-messages', input)).data,
  update: async (id: number, input: UpdateQuickMessageInput) => (await api.put<QuickMessage>(`/quick-messages/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/quick-messages/${id}`);
  },
  uploadMedia: async (id: number, file: File) => {
    const form = new FormData();
    form.append('typeArch', 'quickMessage');
    form.append('file', file, file.name);
    return (await api.post<QuickMessage>(`/quick-messages/${id}/media-upload`, form)).data;
  },
  removeMedia: async (id: number) => (await api.delete<QuickMessage>(`/quick-messages/${id}/media-upload`)).data,
};

/** Whether the server takes this file (QUICK_MESSAGE_MEDIA_TYPES: image/*, audio/*, video/*, exact types). */
export const acceptsMedia = (file: { type: string }, accepted: readonly string[]): boolean =>
  accepted.some((type) => (type.endsWith('/*') ? file.type.startsWith(type.slice(0, -1)) : file.type === type));
