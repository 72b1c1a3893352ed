/** Wire shapes of the tickets feature (server: tickets/messages presenters). */
export type TicketStatus = 'open' | 'pending' | 'closed';

export interface TagRef {
  id: number;
  name: string;
  color: string;
}

export interface ContactRef {
  id: number;
  name: string;
  number: string;
  email?: string | null;
  profilePicUrl?: string | null;
  isGroup?: boolean;
  uuid?: string;
}

export interface Ticket {
  id: number;
  uuid: string;
  status: TicketStatus;
  contactId: number;
  contact: ContactRef | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string; status?: string } | null;
  isGroup?: boolean;
  chatbot?: boolean;
  lastMessage: string | null;
  /** Client-only: the last message was deleted while the list was on screen (the server keeps its text). */
  lastMessageDeleted?: boolean;
  unreadMessages: number;
  tags?: TagRef[];
  createdAt: string;
  updatedAt: string;
}

export interface TicketListResponse {
  tickets: Ticket[];
  hasMore: boolean;
  count?: number;
}

export interface MessageBase {
  id: number;
  wid?: string | null;
  /** Null for a message sent without a ticket (a campaign's), kept in the contact's history. */
  ticketId: number | null;
  body: string;
  fromMe: boolean;
  read?: boolean;
  ack: number;
  mediaType: string | null;
  mediaUrl: string | null;
  mediaName?: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  isSystem?: boolean;
  /** Why our message did not leave (an error code); null while waiting or once sent. */
  sendError?: string | null;
  contact: { id: number; name: string; number: string } | null;
  user?: { id: number; name: string } | null;
  createdAt: string;
  updatedAt?: string;
}

export interface Message extends MessageBase {
  quotedMsgId?: number | null;
  quotedMsg?: MessageBase | null;
}

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

export interface ContactDetail extends ContactRef {
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
