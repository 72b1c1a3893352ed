import type { CreatePromptInput, PromptUsageView, PromptView, UpdatePromptInput } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

export type Prompt = PromptView;

/** Every key of this feature's lists; realtime `prompt` events and saves reload under it. */
export const PROMPTS_KEY = ['prompts'] as const;

export const promptsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<Prompt>> => {
    const { data } = await api.get<{ prompts: Prompt[]; hasMore: boolean }>('/prompt', { params: { searchParam, pageNumber } });
    return { items: data.prompts, hasMore: data.hasMore };
  },
  create: async (input: CreatePromptInput) => (await api.post<Prompt>('/prompt', input)).data,
  update: async (id: number, input: UpdatePromptInput) => (await api.put<Prompt>(`/prompt/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/prompt/${id}`);
  },
  /** GET /prompt/usage: the company's AI requests and tokens by month, kind and model (admins). */
  usage: async () => (await api.get<{ usage: PromptUsageView[] }>('/prompt/usage')).data.usage,
  queues: async () => (await api.get<{ id: number; name: string; color: string }[]>('/queue')).data,
};
