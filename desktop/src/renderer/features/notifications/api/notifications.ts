import { api } from '../../../api/client';

/** The ticket fields the bell shows (the tickets feature has the full shape). */
export interface UnreadTicket {
  id: number;
  uuid: string;
  status: 'open' | 'pending' | 'closed';
  userId: number | null;
  queueId: number | null;
  queue?: { id: number; name: string } | null;
  unreadMessages: number;
  /** The automation holding the conversation (the queue chatbot, an integration, a prompt), if any. */
  chatbot?: boolean;
  useIntegration?: boolean;
  promptId?: number | null;
  lastMessage: string | null;
  lastMessageAt?: string | null;
  updatedAt: string;
  contact: { id: number; name: string; profilePicUrl?: string | null } | null;
}

export interface NotificationMessage {
  id: number;
  ticketId: number;
  body: string;
  fromMe: boolean;
  mediaType?: string | null;
}

export const fetchUnreadTickets = async (): Promise<UnreadTicket[]> =>
  (await api.get<{ tickets: UnreadTicket[] }>('/tickets', { params: { withUnreadMessages: 'true' } })).data.tickets;
