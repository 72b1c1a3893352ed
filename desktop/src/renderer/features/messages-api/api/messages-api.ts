import type { ApiMessageStatus, ApiSendResponse } from '@atrium/shared';
import { api, getServerUrl } from '../../../api/client';

/** The parts of an OpenAPI 3.1 document the screen reads (GET /api/openapi.json). */
export interface OpenApiSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  nullable?: boolean;
}

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: OpenApiSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description?: string; schema?: OpenApiSchema }>;
  content?: Record<string, { schema?: OpenApiSchema }>;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: OpenApiSchema }> };
  responses: Record<string, OpenApiResponse>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Partial<Record<'get' | 'post' | 'put' | 'delete', OpenApiOperation>>>;
  components?: {
    schemas?: Record<string, OpenApiSchema>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
}

/** The address the calls go to: the desktop's server, or this page's origin in the browser. */
export const apiBaseUrl = (): string => getServerUrl() || window.location.origin;

export const OPENAPI_KEY = ['messages-api', 'openapi'] as const;

/** What a test call answered, whatever its status. */
export interface TestReply<T = unknown> {
  status: number;
  data: T;
  headers: Record<string, string>;
}

/**
 * A call made with a connection's token, never the session's: the token goes in Authorization, and the
 * session's refresh and logout stay out of it (a 401 here is about the token typed, not the user).
 */
const withToken = (token: string) => ({
  headers: { Authorization: `Bearer ${token.trim()}` },
  skipSessionHandling: true,
  validateStatus: () => true,
});

const replyOf = <T>(res: { status: number; data: unknown; headers: unknown }): TestReply<T> => ({
  status: res.status,
  data: res.data as T,
  headers: Object.fromEntries(
    Object.entries((res.headers ?? {}) as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .map(([k, v]) => [k.toLowerCase(), String(v)]),
  ),
});

export const messagesApi = {
  openapi: async () => (await api.get<OpenApiDocument>('/api/openapi.json', { skipSessionHandling: true })).data,
  sendText: async (token: string, input: { number: string; body: string; closeTicket: boolean }, idempotencyKey?: string) => {
    const config = withToken(token);
    if (idempotencyKey) Object.assign(config.headers, { 'Idempotency-Key': idempotencyKey });
    return replyOf<ApiSendResponse | { error: string }>(await api.post('/api/messages/send', input, config));
  },
  sendMedia: async (token: string, input: { number: string; body: string; closeTicket: boolean; files: File[] }, idempotencyKey?: string) => {
    const form = new FormData();
    form.append('number', input.number);
    form.append('body', input.body);
    form.append('closeTicket', String(input.closeTicket));
    for (const file of input.files) form.append('medias', file, file.name);
    const config = withToken(token);
    if (idempotencyKey) Object.assign(config.headers, { 'Idempotency-Key': idempotencyKey });
    return replyOf<ApiSendResponse | { error: string }>(await api.post('/api/messages/send', form, config));
  },
  status: async (token: string, id: number) => replyOf<ApiMessageStatus | { error: string }>(await api.get(`/api/messages/${id}`, withToken(token))),
};
