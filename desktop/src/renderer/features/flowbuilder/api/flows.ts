import type { FlowDocumentView, FlowGraphInput, FlowRunView, FlowTestResult, FlowView } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

/** The flows list (GET /flowbuilder) and everything under it. */
export const FLOWS_KEY = ['flowbuilder'] as const;
export const flowDocumentKey = (id: number) => ['flowbuilder', 'document', id] as const;

export type Flow = FlowView;

/** The calls of spec 02 section 7 ("Flow builder and flow campaigns"). */
export const flowsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<Flow>> => {
    const { data } = await api.get<{ flows: Flow[]; hasMore: boolean }>('/flowbuilder', { params: { searchParam, pageNumber } });
    return { items: data.flows, hasMore: data.hasMore };
  },
  create: async (input: { name: string }) => (await api.post<Flow>('/flowbuilder', input)).data,
  update: async (flowId: number, input: { name?: string; active?: boolean }) => (await api.put<Flow>('/flowbuilder', { flowId, ...input })).data,
  duplicate: async (flowId: number) => (await api.post<Flow>('/flowbuilder/duplicate', { flowId })).data,
  remove: async (id: number) => {
    await api.delete(`/flowbuilder/${id}`);
  },
  document: async (id: number) => (await api.get<FlowDocumentView>(`/flowbuilder/flow/${id}`)).data,
  save: async (idFlow: number, graph: FlowGraphInput) => (await api.post<FlowDocumentView>('/flowbuilder/flow', { idFlow, ...graph })).data,
  test: async (input: { flowId: number; graph: FlowGraphInput; event: 'start' | 'message' | 'timeout'; body?: string; session?: unknown }) =>
    (await api.post<FlowTestResult>('/flowbuilder/test', input)).data,
  /** Uploads for the content node's cards: the stored names, in order. */
  upload: async (files: File[]): Promise<string[]> => {
    const form = new FormData();
    for (const file of files) form.append('medias', file);
    return (await api.post<string[]>('/flowbuilder/content', form)).data;
  },
  log: async (ticketId: number) => (await api.get<{ runs: FlowRunView[] }>(`/flowbuilder/log/${ticketId}`)).data.runs,
  /**
   * The company's Typebot integrations, for a Typebot node (GET /queueIntegration, every page; a company
   * has a handful). Empty when the plan has no integrations.
   */
  typebots: async (): Promise<{ id: number; name: string }[]> => {
    const found: { id: number; name: string }[] = [];
    for (let pageNumber = 1; pageNumber <= 20; pageNumber += 1) {
      const { data } = await api.get<{ queueIntegrations: { id: number; name: string; type: string }[]; hasMore: boolean }>('/queueIntegration/', {
        params: { pageNumber },
      });
      found.push(...data.queueIntegrations.filter((i) => i.type === 'typebot').map((i) => ({ id: i.id, name: i.name })));
      if (!data.hasMore) break;
    }
    return found;
  },
  /** The queues a ticket node may move to. */
  queues: async () => (await api.get<{ id: number; name: string }[]>('/queue')).data,
};
