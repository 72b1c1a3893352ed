import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { MemoryRouter, useLocation } from 'react-router';
import { onTestFinished } from 'vitest';
import { subscribeToasts, type ToastMessage } from '../components/toasts';
import { api } from '../api/client';
import type { SessionUser } from '../api/types';
import { AppProviders } from '../app/providers';
import { AppRoutes } from '../app/routes';
import { useAuthStore, type SessionOrigin } from '../stores/auth-store';

/** Shows the router's current path, so tests can assert where a guard sent them. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** The whole app (providers, guards, layout, lazy pages) at `path`, in a memory router. */
export const renderApp = (path: string) =>
  render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );

/**
 * Loads the layout and these pages before a file's first test (`beforeAll(() => preloadPages(...), 120_000)`):
 * a whole-app render otherwise pays their first import, transform included, inside the test's own time
 * limit, which a loaded machine can exceed. The routes' lazy imports then resolve from the module cache.
 */
export const preloadPages = async (...pages: (() => Promise<unknown>)[]): Promise<void> => {
  await Promise.all([import('../app/layout/main-layout'), ...pages.map((load) => load())]);
};

/** One component inside the providers and a memory router. */
export const renderWithProviders = (ui: ReactElement, path = '/') =>
  render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );

export const makeUser = (overrides: Partial<SessionUser> = {}): SessionUser => ({
  id: 7,
  name: 'Ana Admin',
  email: 'ana@example.com',
  profile: 'admin',
  super: false,
  companyId: 3,
  allTicket: 'desabled',
  whatsappId: null,
  queues: [],
  company: {
    id: 3,
    name: 'Acme',
    email: null,
    phone: null,
    status: true,
    dueDate: '2099-12-31',
    recurrence: 'MENSAL',
    planId: 1,
    settings: [],
  },
  ...overrides,
});

export const signIn = (user: Partial<SessionUser> = {}, origin: SessionOrigin = 'restore') =>
  useAuthStore.getState().setSession('token-1', makeUser(user), origin);

export interface FakeCall {
  method: string;
  url: string;
  data: unknown;
  params: unknown;
  headers: Record<string, unknown>;
}

type Reply = { status?: number; data?: unknown } | undefined;

/**
 * A JSON body as the client would receive it: a copy, so a fake server's later changes to its own objects
 * do not reach the answers already given (the query cache compares answers by content).
 */
const overTheWire = (data: unknown): unknown => {
  if (data === null || typeof data !== 'object') return data;
  const proto = Object.getPrototypeOf(data) as unknown;
  return Array.isArray(data) || proto === Object.prototype || proto === null ? JSON.parse(JSON.stringify(data)) : data;
};

/**
 * Answers the API client's requests in memory: `handler` gets each call and returns a status and body
 * (undefined: 404). Calls are recorded. The client's interceptors (token, refresh, logout) still run.
 */
export const fakeServer = (handler: (call: FakeCall) => Reply | Promise<Reply>) => {
  const calls: FakeCall[] = [];
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const call: FakeCall = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      data: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
      params: config.params,
      headers: config.headers.toJSON() as Record<string, unknown>,
    };
    calls.push(call);
    const reply = (await handler(call)) ?? { status: 404, data: { error: 'ERR_NOT_FOUND' } };
    const response: AxiosResponse = {
      data: overTheWire(reply.data),
      status: reply.status ?? 200,
      statusText: String(reply.status ?? 200),
      headers: {},
      config,
    };
    const validate = config.validateStatus ?? ((s: number) => s >= 200 && s < 300);
    if (validate(response.status)) return response;
    const { AxiosError } = await import('axios');
    throw new AxiosError(`Request failed with status code ${response.status}`, undefined, config, null, response);
  };
  api.defaults.adapter = adapter;
  return calls;
};

/** The plan answer of GET /companies/listPlan/{id} with the given flags. */
export const planReply = (flags: Record<string, boolean> = {}) => ({
  data: {
    id: 3,
    name: 'Acme',
    dueDate: '2099-12-31',
    plan: {
      id: 1,
      name: 'Plan',
      users: 10,
      connections: 10,
      queues: 10,
      value: 0,
      useCampaigns: false,
      useKanban: false,
      useOpenAi: false,
      useIntegrations: false,
      useSchedules: false,
      useInternalChat: false,
      useExternalApi: false,
      ...flags,
    },
  },
});

/** Records every toast raised during the current test. */
export const collectToasts = (): ToastMessage[] => {
  const toasts: ToastMessage[] = [];
  onTestFinished(subscribeToasts((t) => toasts.push(t)));
  return toasts;
};
