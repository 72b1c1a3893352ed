import type {
  CreateQueueIntegrationInput,
  QueueIntegrationTestResult,
  QueueIntegrationView,
  TestQueueIntegrationInput,
  UpdateQueueIntegrationInput,
  WebhookDeliveryView,
} from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

export type QueueIntegration = QueueIntegrationView;
export type WebhookDelivery = WebhookDeliveryView;

/** Every key of this feature's lists; realtime `queueIntegration` events and saves reload under it. */
export const QUEUE_INTEGRATIONS_KEY = ['queue-integrations'] as const;

export const queueIntegrationsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<QueueIntegration>> => {
    const { data } = await api.get<{ queueIntegrations: QueueIntegration[]; hasMore: boolean }>('/queueIntegration/', { params: { searchParam, pageNumber } });
    return { items: data.queueIntegrations, hasMore: data.hasMore };
  },
  create: async (input: CreateQueueIntegrationInput) => (await api.post<QueueIntegration>('/queueIntegration', input)).data,
  update: async (id: number, input: UpdateQueueIntegrationInput) => (await api.put<QueueIntegration>(`/queueIntegration/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/queueIntegration/${id}`);
  },
  test: async (input: TestQueueIntegrationInput | Record<string, unknown>) => (await api.post<QueueIntegrationTestResult>('/queueIntegration/testSession', input)).data,
  deliveries: async (id: number) =>
    (await api.get<{ deliveries: WebhookDelivery[]; hasMore: boolean }>(`/queueIntegration/${id}/deliveries`, { params: { pageNumber: 1 } })).data.deliveries,
};
