import type { CreateQueueInput, QueueView, UpdateQueueInput } from '@atrium/shared';
import { api } from '../../../api/client';

/** One day of a queue's attendance hours (HH:MM, '' for none). */
export interface QueueSchedule {
  weekday?: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

/** A queue as GET /queue answers it (spec 02 section 3): the server's view, typed once in shared/. */
export type Queue = QueueView;

/** What a select of the queue modal lists (an integration or a prompt). */
export interface NamedRecord {
  id: number;
  name: string;
}

interface SettingRow {
  key: string;
  value: string;
}

/** The key other features read GET /queue under too (users, connections, tickets). */
export const QUEUES_KEY = ['queues'] as const;
export const QUEUE_SETTINGS_KEY = ['queue-modal', 'settings'] as const;
export const QUEUE_INTEGRATIONS_KEY = ['queue-modal', 'integrations'] as const;
export const QUEUE_PROMPTS_KEY = ['queue-modal', 'prompts'] as const;

/** The list endpoints answer `{ <name>: [...], count, hasMore }`; a plain array is read as well. */
const recordsOf = (data: unknown, field: string): NamedRecord[] => {
  const list = Array.isArray(data) ? data : ((data as Record<string, unknown> | null)?.[field] ?? []);
  return (Array.isArray(list) ? list : []) as NamedRecord[];
};

export const queuesApi = {
  list: async () => (await api.get<Queue[]>('/queue')).data,
  create: async (input: CreateQueueInput) => (await api.post<Queue>('/queue', input)).data,
  update: async (id: number, input: UpdateQueueInput) => (await api.put<Queue>(`/queue/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/queue/${id}`);
  },
  /** The company's scheduleType setting ('disabled', 'company' or 'queue'). */
  scheduleType: async () => {
    const { data } = await api.get<SettingRow[]>('/settings');
    return (Array.isArray(data) ? data : []).find((s) => s.key === 'scheduleType')?.value ?? null;
  },
  integrations: async () => recordsOf((await api.get('/queueIntegration')).data, 'queueIntegrations'),
  prompts: async () => recordsOf((await api.get('/prompt')).data, 'prompts'),
};

/** Menu order, as the server sorts: orderQueue (empty last), then name, then id. */
export const sortQueues = (queues: readonly Queue[]): Queue[] =>
  [...queues].sort(
    (a, b) =>
      (a.orderQueue ?? Number.POSITIVE_INFINITY) - (b.orderQueue ?? Number.POSITIVE_INFINITY) ||
      a.name.localeCompare(b.name) ||
      a.id - b.id,
  );

/** A company-{id}-queue event: `{action: 'create'|'update', queue}` or `{action: 'delete', queueId}`. */
export interface QueueEvent {
  action: string;
  queue?: Queue;
  queueId?: number;
}

/** The cached list after a realtime event. */
export const applyQueueEvent = (old: Queue[] | undefined, event: QueueEvent): Queue[] | undefined => {
  if (!old) return old;
  if (event.action === 'delete') {
    const id = event.queueId ?? event.queue?.id;
    return old.filter((q) => q.id !== id);
  }
  const changed = event.queue;
  if (!changed || (event.action !== 'create' && event.action !== 'update')) return old;
  const next = old.some((q) => q.id === changed.id) ? old.map((q) => (q.id === changed.id ? { ...q, ...changed } : q)) : [...old, changed];
  return sortQueues(next);
};
