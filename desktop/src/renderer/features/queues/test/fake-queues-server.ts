import { fakeServer, planReply, type FakeCall } from '../../../test/render';
import type { NamedRecord, Queue } from '../api/queues';
import type { QueueOption } from '../api/queue-options';

export const makeQueue = (id: number, overrides: Partial<Queue> = {}): Queue => ({
  id,
  name: `Queue ${id}`,
  color: '#aa0000',
  greetingMessage: '',
  outOfHoursMessage: '',
  orderQueue: id,
  integrationId: null,
  promptId: null,
  schedules: [],
  companyId: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

export interface QueuesServerState {
  queues: Queue[];
  options: QueueOption[];
  scheduleType: string;
  /** Undefined: the endpoint does not exist (404). */
  integrations?: NamedRecord[];
  prompts?: NamedRecord[];
  /** Answers a queue write with this error code (400) instead of saving. */
  queueError?: string;
  /** False: GET /queue-options answers one level without `children` (the contract makes them optional). */
  withChildren?: boolean;
  /** Answers an option write with this error code (403 for ERR_NO_PERMISSION, else 400). */
  optionError?: string;
  /** The company plan's flags (useIntegrations, useOpenAi...). */
  plan?: Record<string, boolean>;
}

/**
 * An in-memory server speaking the queues contract: /queue CRUD, /settings, and /queue-options as
 * spec 02 section 7 and the task describe it (parentId -1 is the top level; DELETE renumbers siblings).
 */
export const queuesServer = (initial: Partial<QueuesServerState> = {}) => {
  const state: QueuesServerState = { queues: [], options: [], scheduleType: 'disabled', ...initial };
  let nextId = 100;
  const calls = fakeServer((call: FakeCall) => {
    const { method, url } = call;
    const body = (call.data ?? {}) as Record<string, unknown>;
    if (url.startsWith('/companies/listPlan/')) return planReply(state.plan);
    if (url === '/settings' && method === 'GET') return { data: [{ key: 'scheduleType', value: state.scheduleType }] };
    if (url === '/queueIntegration' && method === 'GET') {
      return state.integrations ? { data: { queueIntegrations: state.integrations, count: state.integrations.length, hasMore: false } } : undefined;
    }
    if (url === '/prompt' && method === 'GET') {
      return state.prompts ? { data: { prompts: state.prompts, count: state.prompts.length, hasMore: false } } : undefined;
    }
    if (url === '/queue' && method === 'GET') return { data: state.queues };
    if (url === '/queue' && method === 'POST') {
      if (state.queueError) return { status: 400, data: { error: state.queueError } };
      const queue = makeQueue(nextId++, body as Partial<Queue>);
      state.queues.push(queue);
      return { status: 201, data: queue };
    }
    const queueMatch = /^\/queue\/(\d+)$/.exec(url);
    if (queueMatch) {
      const id = Number(queueMatch[1]);
      const index = state.queues.findIndex((q) => q.id === id);
      if (index < 0) return undefined;
      if (method === 'PUT') {
        if (state.queueError) return { status: 400, data: { error: state.queueError } };
        state.queues[index] = { ...state.queues[index], ...(body as Partial<Queue>) };
        return { data: state.queues[index] };
      }
      if (method === 'DELETE') {
        state.queues.splice(index, 1);
        return { data: { message: 'Queue deleted' } };
      }
    }
    if (url === '/queue-options' && method === 'GET') {
      const params = call.params as { queueId: number; parentId: number };
      const parentId = Number(params.parentId) === -1 ? null : Number(params.parentId);
      const level = (parent: number | null): QueueOption[] =>
        state.options
          .filter((o) => o.queueId === Number(params.queueId) && o.parentId === parent)
          .map((o) => {
            const row: QueueOption = { id: o.id, queueId: o.queueId, parentId: o.parentId, title: o.title, message: o.message, option: o.option };
            return state.withChildren === false ? row : { ...row, children: level(o.id) };
          });
      return { data: level(parentId) };
    }
    const refusal = state.optionError && method !== 'GET' && url.startsWith('/queue-options') ? state.optionError : undefined;
    if (refusal) return { status: refusal === 'ERR_NO_PERMISSION' ? 403 : 400, data: { error: refusal } };
    if (url === '/queue-options' && method === 'POST') {
      const option: QueueOption = {
        id: nextId++,
        queueId: Number(body.queueId),
        parentId: body.parentId === null ? null : Number(body.parentId),
        title: String(body.title),
        message: String(body.message ?? ''),
        option: String(body.option),
      };
      state.options.push(option);
      return { status: 201, data: option };
    }
    const optionMatch = /^\/queue-options\/(\d+)$/.exec(url);
    if (optionMatch) {
      const id = Number(optionMatch[1]);
      const option = state.options.find((o) => o.id === id);
      if (!option) return undefined;
      if (method === 'PUT') {
        Object.assign(option, { title: body.title, message: body.message });
        return { data: option };
      }
      if (method === 'DELETE') {
        const gone = new Set([id]);
        let grew = true;
        while (grew) {
          grew = false;
          for (const o of state.options) {
            if (o.parentId !== null && gone.has(o.parentId) && !gone.has(o.id)) {
              gone.add(o.id);
              grew = true;
            }
          }
        }
        state.options = state.options.filter((o) => !gone.has(o.id));
        state.options
          .filter((o) => o.queueId === option.queueId && o.parentId === option.parentId)
          .sort((a, b) => Number(a.option) - Number(b.option))
          .forEach((o, i) => (o.option = String(i + 1)));
        return { status: 204 };
      }
    }
    return undefined;
  });
  return { state, calls };
};
