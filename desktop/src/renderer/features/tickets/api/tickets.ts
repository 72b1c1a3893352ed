import { api } from '../../../api/client';
import type {
  Connection,
  ContactDetail,
  ExtraInfo,
  Message,
  MessagesResponse,
  Queue,
  QuickMessage,
  TagRef,
  Ticket,
  TicketListResponse,
  TicketLog,
  TicketNote,
  TicketStatus,
  UserSummary,
} from './types';

export interface TicketFilters {
  status?: TicketStatus;
  searchParam?: string;
  showAll?: boolean;
  queueIds?: number[];
  tags?: number[];
  users?: number[];
}

const list = (value: number[] | undefined) => (value && value.length > 0 ? JSON.stringify(value) : undefined);

export const fetchTickets = async (filters: TicketFilters, pageNumber: number): Promise<TicketListResponse> => {
  const { data } = await api.get<TicketListResponse>('/tickets', {
    params: {
      pageNumber,
      status: filters.status,
      searchParam: filters.searchParam || undefined,
      showAll: filters.showAll ? 'true' : undefined,
      queueIds: list(filters.queueIds),
      tags: list(filters.tags),
      users: list(filters.users),
    },
  });
  return data;
};

export const fetchTicketByUuid = async (uuid: string): Promise<Ticket> => (await api.get<Ticket>(`/tickets/u/${uuid}`)).data;

export const updateTicket = async (id: number, body: Record<string, unknown>): Promise<Ticket> =>
  (await api.put<Ticket>(`/tickets/${id}`, body)).data;

export const createTicket = async (body: Record<string, unknown>): Promise<Ticket> => (await api.post<Ticket>('/tickets', body)).data;

export const deleteTicket = async (id: number): Promise<void> => {
  await api.delete(`/tickets/${id}`);
};

export const fetchMessages = async (ticketId: number, pageNumber: number): Promise<MessagesResponse> =>
  (await api.get<MessagesResponse>(`/messages/${ticketId}`, { params: { pageNumber } })).data;

/** The ticket's activity trail (transfers, accepts, closes...), oldest first; never sent to the customer. */
export const fetchTicketLog = async (ticketId: number): Promise<TicketLog[]> =>
  (await api.get<{ logs: TicketLog[] }>(`/tickets/${ticketId}/log`)).data.logs;

export const sendTextMessage = async (
  ticketId: number,
  body: { body: string; quotedMsg?: { id: number } | null; signMessage: boolean },
): Promise<Message> => (await api.post<Message>(`/messages/${ticketId}`, body)).data;

/** One file to send and its caption. */
export interface OutgoingFile {
  file: File;
  caption: string;
}

/**
 * POST /messages/{ticketId} multipart: `medias` and one `body` (caption) per file, in order. Answers the
 * stored messages.
 */
export const sendMediaMessage = async (
  ticketId: number,
  files: OutgoingFile[],
  options: { quotedMsgId?: number; signMessage?: boolean; voiceNote?: boolean } = {},
): Promise<Message[]> => {
  const form = new FormData();
  files.forEach(({ file, caption }) => {
    form.append('medias', file, file.name);
    form.append('body', caption);
  });
  if (options.quotedMsgId) form.append('quotedMsgId', String(options.quotedMsgId));
  if (options.signMessage !== undefined) form.append('signMessage', String(options.signMessage));
  if (options.voiceNote) form.append('voiceNote', 'true');
  const { data } = await api.post<Message[]>(`/messages/${ticketId}`, form);
  return Array.isArray(data) ? data : [];
};

/** A quick answer's file (its signed URL), to send as an attachment. */
export const fetchQuickMessageFile = async (url: string, name: string): Promise<File> => {
  const { data } = await api.get<Blob>(url, { responseType: 'blob' });
  return new File([data], name, { type: data.type || 'application/octet-stream' });
};

/** POST /messages/{id}/resend: a message that failed to send goes again; answers it, waiting once more. */
export const resendMessage = async (id: number): Promise<Message> => (await api.post<Message>(`/messages/${id}/resend`)).data;

/** POST /messages/{id}/media: a received file whose download failed is fetched again (answers it pending). */
export const refetchMedia = async (id: number): Promise<Message> => (await api.post<Message>(`/messages/${id}/media`)).data;

/** DELETE /messages/{id}: answers the message, now marked deleted. */
export const deleteMessage = async (id: number): Promise<Message> => (await api.delete<Message>(`/messages/${id}`)).data;

export const fetchTags = async (): Promise<TagRef[]> => (await api.get<TagRef[]>('/tags/list')).data;
/** POST /tags/sync: the ticket's tags become exactly these (one given by name only is created); answers the ticket. */
export const syncTags = async (ticketId: number, tags: (TagRef | { name: string })[]): Promise<Ticket> =>
  (await api.post<Ticket>('/tags/sync', { ticketId, tags })).data;

export const fetchQueues = async (): Promise<Queue[]> => (await api.get<Queue[]>('/queue')).data;
export const fetchConnections = async (): Promise<Connection[]> =>
  (await api.get<Connection[]>('/whatsapp', { params: { session: 0 } })).data;
export const fetchUsers = async (): Promise<UserSummary[]> => (await api.get<UserSummary[]>('/users/list')).data;
export const fetchQuickMessages = async (): Promise<QuickMessage[]> =>
  (await api.get<QuickMessage[]>('/quick-messages/list')).data;

export const searchContacts = async (searchParam: string): Promise<ContactDetail[]> =>
  (await api.get<{ contacts: ContactDetail[] }>('/contacts', { params: { searchParam, pageNumber: 1 } })).data.contacts;
export const fetchContact = async (id: number): Promise<ContactDetail> => (await api.get<ContactDetail>(`/contacts/${id}`)).data;
export const updateContact = async (
  id: number,
  body: { name?: string; number?: string; email?: string; extraInfo?: ExtraInfo[] },
): Promise<ContactDetail> => (await api.put<ContactDetail>(`/contacts/${id}`, body)).data;

export const fetchNotes = async (ticketId: number, contactId: number): Promise<TicketNote[]> =>
  (await api.get<TicketNote[]>('/ticket-notes/list', { params: { ticketId, contactId } })).data;
export const createNote = async (body: { note: string; ticketId: number; contactId: number }): Promise<TicketNote> =>
  (await api.post<TicketNote>('/ticket-notes', body)).data;
export const deleteNote = async (id: number): Promise<void> => {
  await api.delete(`/ticket-notes/${id}`);
};

/** GET /prompt/assist: whether the ticket's conversation offers "Suggest a reply" and "Summarise". */
export const fetchAssistAvailability = async (ticketId: number) =>
  (await api.get<{ available: boolean; promptId: number | null }>('/prompt/assist', { params: { ticketId } })).data;

/** POST /prompt/assist/suggest: a draft of the agent's next reply (the server never sends it). */
export const suggestReply = async (ticketId: number) => (await api.post<{ suggestion: string }>('/prompt/assist/suggest', { ticketId })).data.suggestion;

/** POST /prompt/assist/summary: a short summary of the conversation. */
export const summariseTicket = async (ticketId: number) => (await api.post<{ summary: string }>('/prompt/assist/summary', { ticketId })).data.summary;
