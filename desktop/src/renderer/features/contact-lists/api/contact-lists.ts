import type {
  ContactListImportView,
  ContactListItemView,
  ContactListView,
  CreateContactListInput,
  CreateContactListItemInput,
  UpdateContactListInput,
  UpdateContactListItemInput,
} from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';
import { downloadFromApi } from '../../../components/download';

export type ContactList = ContactListView;
export type ContactListItem = ContactListItemView;
export type ContactListImport = ContactListImportView;

/** Every key of the lists; realtime `ContactList` events and saves reload under it. */
export const CONTACT_LISTS_KEY = ['contact-lists'] as const;
/** The items of one list: [...ITEMS_KEY, listId, ...]. */
export const ITEMS_KEY = ['contact-list-items'] as const;

export const contactListsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<ContactList>> => {
    const { data } = await api.get<{ records: ContactList[]; hasMore: boolean }>('/contact-lists/', { params: { searchParam, pageNumber } });
    return { items: data.records, hasMore: data.hasMore };
  },
  get: async (id: number) => (await api.get<ContactList>(`/contact-lists/${id}`)).data,
  create: async (input: CreateContactListInput) => (await api.post<ContactList>('/contact-lists', input)).data,
  update: async (id: number, input: UpdateContactListInput) => (await api.put<ContactList>(`/contact-lists/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/contact-lists/${id}`);
  },
  /** POST /contact-lists/{id}/upload: the import starts as a job; its progress comes over realtime. */
  upload: async (id: number, file: File, onProgress?: (sent: number) => void) => {
    const form = new FormData();
    form.append('file', file, file.name);
    const { data } = await api.post<ContactListImport>(`/contact-lists/${id}/upload`, form, {
      onUploadProgress: (e) => onProgress?.(e.total ? e.loaded / e.total : 0),
    });
    return data;
  },
  lastImport: async (id: number) => (await api.get<{ import: ContactListImport | null }>(`/contact-lists/${id}/import`)).data.import,
  check: async (id: number, all: boolean) => (await api.post<ContactList>(`/contact-lists/${id}/check`, { all })).data,
  downloadSample: (lang: string) => downloadFromApi('/contact-lists/sample', 'planilha_exemplo.xlsx', { lang }),
  downloadInvalid: (id: number, importId: number) => downloadFromApi(`/contact-lists/${id}/import/${importId}/invalid`, `linhas_invalidas_${importId}.csv`),
};

export const contactListItemsApi = (contactListId: number) => ({
  page: async (searchParam: string, pageNumber: number): Promise<Page<ContactListItem>> => {
    const { data } = await api.get<{ contacts: ContactListItem[]; hasMore: boolean }>('/contact-list-items', {
      params: { searchParam, pageNumber, contactListId },
    });
    return { items: data.contacts, hasMore: data.hasMore };
  },
  create: async (input: Omit<CreateContactListItemInput, 'contactListId'>) =>
    (await api.post<ContactListItem>('/contact-list-items', { ...input, contactListId })).data,
  update: async (id: number, input: UpdateContactListItemInput) => (await api.put<ContactListItem>(`/contact-list-items/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/contact-list-items/${id}`);
  },
});
