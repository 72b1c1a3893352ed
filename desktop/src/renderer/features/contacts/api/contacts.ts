import type { CreateContactInput, UpdateContactInput } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

export interface ExtraInfo {
  id?: number;
  name: string;
  value: string;
}

export interface Contact {
  id: number;
  name: string;
  number: string;
  email: string | null;
  profilePicUrl?: string | null;
  isGroup?: boolean;
  uuid?: string;
  extraInfo?: ExtraInfo[];
}

export interface ImportResult {
  newContacts: { contactId: number; contactName: string }[];
  /** `fields`: for ERR_VALIDATION, which of the row's columns were refused (path name, number or email). */
  errorBag: { contactName: string; error: string; fields?: { path: string; message: string }[] }[];
}

export interface TicketRef {
  id: number;
  uuid: string;
  userId?: number | null;
  user?: { id: number; name: string } | null;
  queue?: { id: number; name: string } | null;
}

export const CONTACTS_KEY = ['contacts'] as const;

export const contactsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<Contact>> => {
    const { data } = await api.get<{ contacts: Contact[]; hasMore: boolean }>('/contacts', { params: { searchParam, pageNumber } });
    return { items: data.contacts, hasMore: data.hasMore };
  },
  all: async () => (await api.get<Contact[]>('/contacts/list')).data,
  get: async (id: number) => (await api.get<Contact>(`/contacts/${id}`)).data,
  create: async (input: CreateContactInput) => (await api.post<Contact>('/contacts', input)).data,
  update: async (id: number, input: UpdateContactInput) => (await api.put<Contact>(`/contacts/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/contacts/${id}`);
  },
  importXlsx: async (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return (await api.post<ImportResult>('/contacts/import', form)).data;
  },
  connections: async () => (await api.get<{ id: number; isDefault: boolean; status: string }[]>('/whatsapp/', { params: { session: 0 } })).data,
  startTicket: async (body: { contactId: number; userId: number; whatsappId: number | null; status: 'open' }) =>
    (await api.post<TicketRef>('/tickets', body)).data,
};

/** Only .xlsx files may be imported (spec 01 section 5). */
export const isXlsx = (file: { name: string }): boolean => /\.xlsx$/i.test(file.name.trim());

export const CSV_FILE_NAME = 'contatos.csv';

const csvCell = (value: string | null | undefined): string => {
  const text = (value ?? '').replace(/\r?\n/g, ' ');
  return /[;"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The contacts export: ';' separated, columns name;number;email. */
export const contactsCsv = (contacts: readonly Pick<Contact, 'name' | 'number' | 'email'>[]): string =>
  ['name;number;email', ...contacts.map((c) => [c.name, c.number, c.email].map(csvCell).join(';'))].join('\n') + '\n';
