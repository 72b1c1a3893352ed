import type { CreateScheduleInput, ScheduleStatusName, UpdateScheduleInput } from '@atrium/shared';
import { api, getServerUrl } from '../../../api/client';

export interface ScheduleContact {
  id: number;
  name: string;
  number: string | null;
}

/** A schedule as GET /schedules answers it. */
export interface Schedule {
  id: number;
  body: string;
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatusName;
  /** Why the last attempt failed (an error code). */
  error: string | null;
  attempts: number;
  contactId: number;
  contact: ScheduleContact | null;
  userId: number | null;
  whatsappId: number | null;
  ticketId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
}

export interface ScheduleWindow {
  /** First instant shown (inclusive) and the instant after the last (exclusive). */
  from: Date;
  to: Date;
  searchParam: string;
}

export const SCHEDULES_KEY = ['schedules'] as const;
/** The calendar loads every page of its window; more than this many pages is not a calendar any more. */
const MAX_PAGES = 50;

type Wire<T> = Omit<T, 'sendAt'> & { sendAt: string | Date };
const wire = <T extends { sendAt?: Date | string }>(input: T) =>
  (input.sendAt instanceof Date ? { ...input, sendAt: input.sendAt.toISOString() } : input) as Wire<T>;

export const schedulesApi = {
  /** Every schedule of a window (the calendar's visible weeks), all pages. */
  window: async ({ from, to, searchParam }: ScheduleWindow): Promise<Schedule[]> => {
    const all: Schedule[] = [];
    for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
      const { data } = await api.get<{ schedules: Schedule[]; hasMore: boolean }>('/schedules', {
        params: { searchParam, pageNumber, sendAtFrom: from.toISOString(), sendAtTo: to.toISOString() },
      });
      all.push(...data.schedules);
      if (!data.hasMore) break;
    }
    return all;
  },
  get: async (id: number) => (await api.get<Schedule>(`/schedules/${id}`)).data,
  create: async (input: CreateScheduleInput) => (await api.post<Schedule>('/schedules', wire(input))).data,
  update: async (id: number, input: UpdateScheduleInput) => (await api.put<Schedule>(`/schedules/${id}`, wire(input))).data,
  remove: async (id: number) => {
    await api.delete(`/schedules/${id}`);
  },
  uploadMedia: async (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return (await api.post<Schedule>(`/schedules/${id}/media-upload`, form)).data;
  },
  removeMedia: async (id: number) => (await api.delete<Schedule>(`/schedules/${id}/media-upload`)).data,
  /** The contact autocomplete: the first page of GET /contacts for the typed text. */
  searchContacts: async (searchParam: string) =>
    (await api.get<{ contacts: ScheduleContact[] }>('/contacts', { params: { searchParam, pageNumber: 1 } })).data.contacts,
  contact: async (id: number) => (await api.get<ScheduleContact>(`/contacts/${id}`)).data,
};

/** A media URL the browser can load (the server answers a path). */
export const mediaHref = (url: string | null): string | null =>
  url ? `${getServerUrl()}${url.startsWith('/') ? '' : '/'}${url}` : null;
