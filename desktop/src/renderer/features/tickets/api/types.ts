import type { ContactView, MessageBaseView, MessageView, TicketLogView, TicketStatusView, TicketView } from '@atrium/shared';

/** Wire shapes of the tickets feature; what the server presents is typed once, in shared/views.ts. */
export type TicketStatus = TicketStatusView;

export interface TagRef {
  id: number;
  name: string;
  color: string;
}

/** A contact as the server sends it (shared/views.ts). */
export type ContactRef = ContactView;

/** A ticket as the server sends it (shared/views.ts), with what the list adds on the client. */
export interface Ticket extends TicketView {
  /** Client-only: the last message was deleted while the list was on screen (the server keeps its text). */
  lastMessageDeleted?: boolean;
}

export interface TicketListResponse {
  tickets: Ticket[];
  hasMore: boolean;
  count?: number;
}

/** Messages as the server sends them (shared/views.ts). */
export type MessageBase = MessageBaseView;
export type Message = MessageView;
/** One line of the ticket's activity trail (GET /tickets/{id}/log). */
export type TicketLog = TicketLogView;

export interface MessagesResponse {
  messages: Message[];
  ticket: { id: number };
  hasMore: boolean;
}

export interface Queue {
  id: number;
  name: string;
  color: string;
}

export interface UserSummary {
  id: number;
  name: string;
  email?: string;
  profile?: string;
  queues?: Queue[];
}

export interface Connection {
  id: number;
  name: string;
  status?: string;
  isDefault?: boolean;
}

export interface QuickMessage {
  id: number;
  shortcode: string;
  message: string;
  /** Signed URL of the quick answer's file, if it has one. */
  mediaUrl?: string | null;
  mediaName?: string | null;
  /** Switched off: not offered (the server's list leaves those out too). */
  status?: boolean;
}

export interface TicketNote {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  user: { id: number; name: string } | null;
  createdAt: string;
}

export interface ExtraInfo {
  id?: number;
  name: string;
  value: string;
}

export interface ContactDetail extends ContactView {
  extraInfo?: ExtraInfo[];
}

/** company-{id}-ticket */
export type TicketEvent =
  | { action: 'update'; ticket: Ticket }
  | { action: 'delete'; ticketId: number }
  | { action: 'updateUnread'; ticketId: number };

/** company-{id}-appMessage */
export interface AppMessageEvent {
  action: 'create' | 'update';
  message: Message;
  ticket?: Ticket;
  contact?: ContactRef;
}
