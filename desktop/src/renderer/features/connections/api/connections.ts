import type { ConnectionView, CreateConnectionInput, UpdateConnectionInput } from '@atrium/shared';
import { api } from '../../../api/client';

/** A connection as GET /whatsapp answers it (spec 01 section 3): the server's view, typed once in shared/. */
export type Connection = ConnectionView;
/** A create or update that generated the connection's API token answers it, this once. */
export type SavedConnection = Connection & { token?: string };

export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

/** The cache key the layout's connection badge shares (GET /whatsapp/?session=0). */
export const CONNECTIONS_KEY = ['connections'] as const;
export const QUEUES_KEY = ['queues'] as const;

export const CONNECTION_INTEGRATIONS_KEY = ['connection-modal', 'integrations'] as const;
export const CONNECTION_PROMPTS_KEY = ['connection-modal', 'prompts'] as const;

/** What the integration and prompt selects list. */
export interface NamedRecord {
  id: number;
  name: string;
}

export const PROVIDERS = ['beta', 'sandbox'] as const;

export const connectionsApi = {
  list: async () => (await api.get<Connection[]>('/whatsapp/', { params: { session: 0 } })).data,
  create: async (input: CreateConnectionInput) => (await api.post<SavedConnection>('/whatsapp', input)).data,
  update: async (id: number, input: UpdateConnectionInput) => (await api.put<SavedConnection>(`/whatsapp/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/whatsapp/${id}`);
  },
  /** Try again: starts the session. */
  startSession: async (id: number) => {
    await api.post(`/whatsappsession/${id}`);
  },
  /** New QR: restarts the session. */
  restartSession: async (id: number) => {
    await api.put(`/whatsappsession/${id}`);
  },
  /** Disconnect. */
  logoutSession: async (id: number) => {
    await api.delete(`/whatsappsession/${id}`);
  },
  /** Instead of the QR code: a code to type on the phone of `number` (Linked devices > Link with phone number). */
  pairingCode: async (id: number, number: string) =>
    (await api.post<{ code: string }>(`/whatsappsession/${id}/pairing-code`, { number })).data.code,
  /** The simulated phone scans the QR code. */
  sandboxScan: async (id: number) => {
    await api.post(`/sandbox/${id}/scan`);
  },
  queues: async () => (await api.get<QueueOption[]>('/queue')).data,
  integrations: async () => (await api.get<{ queueIntegrations: NamedRecord[] }>('/queueIntegration')).data.queueIntegrations,
  prompts: async () => (await api.get<{ prompts: NamedRecord[] }>('/prompt')).data.prompts,
  /** The company's flows, for the welcome and no-match flows (every page of GET /flowbuilder). */
  flows: async () => {
    const all: { id: number; name: string }[] = [];
    for (let page = 1; page <= 50; page += 1) {
      const { data } = await api.get<{ flows: { id: number; name: string }[]; hasMore: boolean }>('/flowbuilder', { params: { pageNumber: page } });
      all.push(...data.flows);
      if (!data.hasMore) break;
    }
    return all;
  },
};
