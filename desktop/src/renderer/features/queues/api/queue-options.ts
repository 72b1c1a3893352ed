import type { CreateQueueOptionInput, QueueOptionView, UpdateQueueOptionInput } from '@atrium/shared';
import { api } from '../../../api/client';

/**
 * One entry of a queue's chatbot menu (spec 02 section 3); `option` is the key the customer types.
 * GET answers each option with its whole subtree in `children`.
 */
export type QueueOption = Pick<QueueOptionView, 'id' | 'title' | 'queueId' | 'parentId'> & {
  message: string | null;
  option: string | number;
  children?: QueueOption[];
};

/** The top level of one queue's tree; every level sits under ['queue-options', queueId]. */
export const queueOptionsKey = (queueId: number, parentId: number | null) => ['queue-options', queueId, parentId ?? -1] as const;
export const queueOptionsPrefix = (queueId: number) => ['queue-options', queueId] as const;

const numericKey = (o: Pick<QueueOption, 'option'>): number => (/^\d+$/.test(String(o.option)) ? Number(o.option) : Number.POSITIVE_INFINITY);

/** Menu order, as the server has it: numeric keys by value ("2" before "10"), any other key after them. */
export const sortOptions = <T extends Pick<QueueOption, 'option' | 'id'>>(options: readonly T[]): T[] =>
  [...options].sort((a, b) => numericKey(a) - numericKey(b) || String(a.option).localeCompare(String(b.option)) || a.id - b.id);

export const queueOptionsApi = {
  /** One level with its subtrees: parentId null is the top level (sent as -1). */
  list: async (queueId: number, parentId: number | null) =>
    (await api.get<QueueOption[]>('/queue-options', { params: { queueId, parentId: parentId ?? -1 } })).data,
  create: async (input: CreateQueueOptionInput) => (await api.post<QueueOption>('/queue-options', input)).data,
  update: async (id: number, input: UpdateQueueOptionInput) => (await api.put<QueueOption>(`/queue-options/${id}`, input)).data,
  /** The server renumbers the remaining siblings. */
  remove: async (id: number) => {
    await api.delete(`/queue-options/${id}`);
  },
};
