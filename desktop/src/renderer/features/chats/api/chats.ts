import type { ChatEventPayload, ChatMessageView, ChatView } from '@atrium/shared';
import { api, getServerUrl } from '../../../api/client';

export type Chat = ChatView;
export type ChatMessage = ChatMessageView;
export type ChatEvent = ChatEventPayload;

/** What POST and PUT /chats take (the contract's shape: users as `[{id}]`). */
export interface ChatForm {
  title: string;
  users: { id: number }[];
}

export interface Page<T> {
  records: T[];
  count: number;
  hasMore: boolean;
}

/** Cache keys: every chat query starts with CHATS_KEY, so one invalidation reaches them all. */
export const CHATS_KEY = ['chats'] as const;
export const CHAT_LIST_KEY = ['chats', 'list'] as const;
/** The chats the user has not read (GET /chats?unread=true): the bell, its count, the menu's dot, the tray. */
export const CHAT_UNREAD_KEY = ['chats', 'unread'] as const;
/** One chat read by itself (a link to a chat not on the loaded pages). */
export const CHAT_ONE_KEY = ['chats', 'one'] as const;
export const chatMessagesKey = (chatId: number) => ['chats', 'messages', chatId] as const;

export const chatsApi = {
  /** GET /chats: the caller's chats, most recently active first. */
  list: async (pageNumber: number): Promise<Page<Chat>> => (await api.get<Page<Chat>>('/chats', { params: { pageNumber } })).data,
  /** GET /chats?unread=true: the first page of the chats the caller has not read, and how many there are. */
  unread: async (): Promise<Page<Chat>> => (await api.get<Page<Chat>>('/chats', { params: { unread: true } })).data,
  /** GET /chats/{id or uuid}. */
  get: async (id: number | string): Promise<Chat> => (await api.get<Chat>(`/chats/${id}`)).data,
  create: async (input: ChatForm): Promise<Chat> => (await api.post<Chat>('/chats', input)).data,
  update: async (id: number, input: Partial<ChatForm>): Promise<Chat> => (await api.put<Chat>(`/chats/${id}`, input)).data,
  remove: async (id: number): Promise<void> => {
    await api.delete(`/chats/${id}`);
  },
  /** POST /chats/{id}/read: the caller has read it (the server knows who). */
  markRead: async (id: number): Promise<Chat> => (await api.post<Chat>(`/chats/${id}/read`)).data,
  /** GET /chats/{id}/messages: page 1 is the newest; each page comes oldest first. */
  messages: async (id: number, pageNumber: number): Promise<Page<ChatMessage>> =>
    (await api.get<Page<ChatMessage>>(`/chats/${id}/messages`, { params: { pageNumber } })).data,
  /** POST /chats/{id}/messages: text as JSON, or a file (with optional text) as multipart. */
  send: async (id: number, message: string, file?: File): Promise<ChatMessage> => {
    if (!file) return (await api.post<ChatMessage>(`/chats/${id}/messages`, { message })).data;
    const form = new FormData();
    form.append('medias', file, file.name);
    if (message) form.append('message', message);
    return (await api.post<ChatMessage>(`/chats/${id}/messages`, form)).data;
  },
};

/** A media URL the browser can load (the server answers a signed path). */
export const mediaHref = (url: string | null): string | null => (url ? `${getServerUrl()}${url.startsWith('/') ? '' : '/'}${url}` : null);

/** GET /users/list: the company's users, for the participants picker. */
export const fetchUsers = async (): Promise<{ id: number; name: string }[]> =>
  (await api.get<{ id: number; name: string }[]>('/users/list')).data;
export const USERS_KEY = ['chats', 'users'] as const;
