import type { CreateUserInput, UpdateUserInput } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

export interface User {
  id: number;
  name: string;
  email: string;
  profile: string;
  super?: boolean;
  allTicket: string;
  whatsappId: number | null;
  queues: { id: number; name: string; color: string }[];
}

export const USERS_KEY = ['users'] as const;

export const usersApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<User>> => {
    const { data } = await api.get<{ users: User[]; hasMore: boolean }>('/users/', { params: { searchParam, pageNumber } });
    return { items: data.users, hasMore: data.hasMore };
  },
  get: async (id: number) => (await api.get<User>(`/users/${id}`)).data,
  create: async (input: CreateUserInput) => (await api.post<User>('/users', input)).data,
  update: async (id: number, input: UpdateUserInput) => (await api.put<User>(`/users/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/users/${id}`);
  },
  queues: async () => (await api.get<{ id: number; name: string; color: string }[]>('/queue')).data,
  connections: async () => (await api.get<{ id: number; name: string }[]>('/whatsapp/', { params: { session: 0 } })).data,
};
