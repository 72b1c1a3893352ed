/**
 * The shapes the server sends (the wire contract of spec 01/02): presenters return them, the event bus and
 * the socket payloads are typed by them, and the renderer and its test servers read them. `D` is how a
 * timestamp travels: a Date where the server builds the view, an ISO string once it has crossed the wire.
 */
import type { FlowGraph, FlowPhraseMatch } from './schemas/flows.js';

export type TicketStatusView = 'pending' | 'open' | 'closed';

export interface ContactView<D = string> {
  id: number;
  name: string;
  /** A LID-only contact shows its LID here. */
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  uuid: string;
  companyId: number;
  createdAt: D;
  updatedAt: D;
}

export interface MessageBaseView<D = string> {
  id: number;
  wid: string | null;
  /** Null for a message sent without a ticket (a campaign's), kept in the contact's history. */
  ticketId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  /** 0 waiting to be sent, 1 sent, 2 delivered, 3 read, 4-5 played. */
  ack: number;
  mediaType: string;
  mediaUrl: string | null;
  mediaName: string | null;
  /**
   * A received media still on its way: `pending` (stored at once, being downloaded), `failed` (it could
   * not be downloaded), `tooLarge` (over the download limit) or `expired` (removed after the company's
   * media retention); null once the file is here, or no media.
   */
  mediaStatus: MediaStatusView | null;
  isDeleted: boolean;
  isEdited: boolean;
  isSystem: boolean;
  /** Why our message did not leave (an error code); null while waiting or once sent. */
  sendError: string | null;
  participant: string | null;
  contactId: number | null;
  contact: { id: number; name: string; number: string } | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: D;
  updatedAt: D;
}

export type MediaStatusView = 'pending' | 'failed' | 'tooLarge' | 'expired';

export interface MessageView<D = string> extends MessageBaseView<D> {
  quotedMsgId: number | null;
  quotedMsg: MessageBaseView<D> | null;
}

export interface TicketView<D = string> {
  id: number;
  uuid: string;
  status: TicketStatusView;
  contactId: number;
  contact: ContactView<D> | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string; status: string } | null;
  isGroup: boolean;
  chatbot: boolean;
  lastMessage: string;
  /** When the message the preview shows was sent: the lists show this time beside that preview. */
  lastMessageAt: D | null;
  unreadMessages: number;
  useIntegration: boolean;
  integrationId: number | null;
  promptId: number | null;
  companyId: number;
  tags: { id: number; name: string; color: string }[];
  createdAt: D;
  updatedAt: D;
}

/** `company-{id}-appMessage`. */
export type AppMessageEventPayload<D = string> =
  | { action: 'create'; message: MessageView<D>; ticket: TicketView<D>; contact: ContactView<D> | null }
  | { action: 'update'; message: MessageView<D> };

/** `company-{id}-ticket`. */
export type TicketEventPayload<D = string> =
  | { action: 'update'; ticket: TicketView<D> }
  | { action: 'delete'; ticketId: number }
  | { action: 'updateUnread'; ticketId: number };

export interface QueueView<D = string> {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  integrationId: number | null;
  promptId: number | null;
  schedules: { weekday: string; weekdayEn: string; startTime: string; endTime: string }[];
  companyId: number;
  createdAt: D;
  updatedAt: D;
}

/** The live part of a connection (`company-{id}-whatsappSession`); the QR code only for admins. */
export interface ConnectionSessionView<D = string> {
  id: number;
  name: string;
  status: string;
  qrcode: string;
  retries: number;
  /** Why the session last closed; empty once connected. */
  disconnectReason: string | null;
  number: string;
  updatedAt: D;
}

/** A connection (`/whatsapp`, `company-{id}-whatsapp`); the QR code only for admins, never its token. */
export interface ConnectionView<D = string> extends ConnectionSessionView<D> {
  isDefault: boolean;
  provider: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  transferQueueId: number | null;
  timeToTransfer: number;
  integrationId: number | null;
  promptId: number | null;
  /** The flow that greets the first message of a conversation (issue 22). */
  flowIdWelcome: number | null;
  /** The flow that answers, once per conversation, a message nothing else answers. */
  flowIdNotPhrase: number | null;
  hasToken: boolean;
  companyId: number;
  queues: { id: number; name: string; color: string; orderQueue: number | null }[];
  queueIds: number[];
  createdAt: D;
}

/** One file of a file list; `path` is the stored file's server-chosen name (null until a file is uploaded). */
export interface FileOptionView<D = string> {
  id: number;
  fileId: number;
  name: string;
  path: string | null;
  /** The stored file's MIME type, as the server read it. */
  mediaType: string | null;
  /** The uploaded file's own name, for display. */
  mediaName: string | null;
  /** A signed, expiring URL of the file. */
  mediaUrl: string | null;
  size: number | null;
  createdAt: D;
  updatedAt: D;
}

/** A file list (`/files`, `company-{id}-file`). */
export interface FileListView<D = string> {
  id: number;
  name: string;
  message: string;
  companyId: number;
  options: FileOptionView<D>[];
  createdAt: D;
  updatedAt: D;
}

/** A participant of an internal chat, with their own unread counter. */
export interface ChatUserView {
  userId: number;
  unreads: number;
  user: { id: number; name: string };
}

/** An internal chat (spec 02 section 4: id, uuid, title, ownerId, lastMessage, updatedAt, users). */
export interface ChatView<D = string> {
  id: number;
  uuid: string;
  title: string;
  ownerId: number | null;
  lastMessage: string;
  companyId: number;
  users: ChatUserView[];
  createdAt: D;
  updatedAt: D;
}

/** A tag (`/tags`, `company-{id}-tag`); `kanban` 1 makes it a lane, placed by `position` (null: after the placed ones, by id). */
export interface TagView<D = string> {
  id: number;
  name: string;
  color: string;
  kanban: number;
  position: number | null;
  userId: number | null;
  companyId: number;
  ticketsCount?: number;
  createdAt: D;
  updatedAt: D;
}

/** A message of an internal chat; an attachment is served through a signed URL like ticket media. */
export interface ChatMessageView<D = string> {
  id: number;
  chatId: number;
  message: string;
  senderId: number | null;
  sender: { id: number; name: string } | null;
  mediaType: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  createdAt: D;
  updatedAt: D;
}

/** `company-{id}-chat` (and the per-chat `company-{id}-chat-{chatId}`), heard by the chat's participants only. */
export type ChatEventPayload<D = string> =
  | { action: 'create' | 'update'; record: ChatView<D>; chat: ChatView<D> }
  | { action: 'new-message'; newMessage: ChatMessageView<D>; chat: ChatView<D> }
  | { action: 'delete'; id: number };

/** `company-{id}-tag`. */
export type TagEventPayload<D = string> =
  | { action: 'create' | 'update'; tag: TagView<D> }
  | { action: 'delete'; tagId: number };

/** A lane of the kanban board: a kanban tag, or null for the tickets without one. */
export interface KanbanLaneView<D = string> {
  tagId: number | null;
  tag: TagView<D> | null;
  /** Tickets in the lane (the caller's view of the board), however many pages. */
  count: number;
  hasMore: boolean;
}

/** GET /ticket/kanban: the first page of every lane (tickets of all lanes together), lanes in their order. */
export interface KanbanBoardView<D = string> {
  tickets: TicketView<D>[];
  lanes: KanbanLaneView<D>[];
}

/** GET /ticket/kanban?lane=…&pageNumber=…: one page of one lane. */
export interface KanbanLanePageView<D = string> {
  tickets: TicketView<D>[];
  count: number;
  hasMore: boolean;
}

/** A flow of the flow builder (`/flowbuilder`). */
export interface FlowView<D = string> {
  id: number;
  name: string;
  active: boolean;
  companyId: number;
  /** How many times it was saved: what runs is the last saved version (0: never saved). */
  version: number;
  createdAt: D;
  updatedAt: D;
}

/** GET /flowbuilder/flow/{id}: the flow with its canvas (null until first saved), and URLs of its files. */
export interface FlowDocumentView<D = string> {
  flow: FlowView<D> & { flow: FlowGraph | null };
  /** Signed, expiring URLs of the files the canvas names, by stored name. */
  files: Record<string, string>;
}

/** A phrase-triggered flow campaign (`/flowcampaign`). */
export interface FlowCampaignView<D = string> {
  id: number;
  name: string;
  flowId: number;
  whatsappId: number;
  phrase: string;
  status: boolean;
  matchType: FlowPhraseMatch;
  companyId: number;
  flow: { id: number; name: string; active: boolean } | null;
  whatsapp: { id: number; name: string } | null;
  createdAt: D;
  updatedAt: D;
}

/** Where a flow run on a ticket stands. */
export type FlowRunStatus = 'running' | 'waiting' | 'done' | 'expired' | 'handed';

/** One step a flow took on a ticket (the conversation view's flow log, admins). */
export interface FlowStepView<D = string> {
  nodeId: string;
  nodeType: string;
  outcome: string;
  detail: string | null;
  at: D;
}

/** A flow's run on a ticket, with its steps in order. */
export interface FlowRunView<D = string> {
  id: number;
  /** Null once the flow was deleted. */
  flowId: number | null;
  flowName: string | null;
  version: number;
  trigger: 'phrase' | 'welcome' | 'noMatch';
  status: FlowRunStatus;
  startedAt: D;
  endedAt: D | null;
  steps: FlowStepView<D>[];
}

/** What the test panel shows after each turn. */
export type FlowTestReply =
  | { kind: 'text'; body: string; nodeId: string }
  /**
   * A file the flow sends (a signed URL of the flow's own file), or an OpenAI node's answer spoken as a
   * voice note: the audio itself as a data URL, with the words it says in `text`.
   */
  | { kind: 'media'; mediaType: 'image' | 'audio' | 'video'; url: string | null; voiceNote: boolean; nodeId: string; text?: string }
  | { kind: 'pause'; seconds: number; nodeId: string }
  | { kind: 'ticket'; queueId: number; queueName: string | null; nodeId: string }
  | { kind: 'handoff'; to: 'typebot' | 'openai'; nodeId: string };

export interface FlowTestResult {
  replies: FlowTestReply[];
  /** The nodes passed, in order, with the outcome each gave. */
  path: { nodeId: string; outcome: string }[];
  status: FlowRunStatus;
  /**
   * What it waits for now: the customer's answer (and whether a "no reply" branch is armed), or, with `to`,
   * the customer's next words for Typebot or OpenAI, which have the conversation.
   */
  waiting: { nodeId: string; timeoutMinutes: number | null; to?: 'typebot' | 'openai' } | null;
  /** Give it back with the next turn. */
  session: unknown;
  variables: Record<string, string>;
}

/**
 * One line of a ticket's activity trail (GET /tickets/{id}/log): what a transition did, who did it and
 * where the ticket went, with the names as they are now (a deleted user or queue has none). Shown in the
 * conversation only; never sent to the customer.
 */
export interface TicketLogView<D = string> {
  id: number;
  ticketId: number;
  action: 'created' | 'accepted' | 'returned' | 'transferred' | 'reopened' | 'queued' | 'closed';
  actor: { kind: 'user' | 'system' | 'chatbot' | 'flow' | 'integration' | 'prompt' | 'campaign' | 'api'; id: number | null; name: string | null };
  fromQueue: { id: number; name: string | null } | null;
  toQueue: { id: number; name: string | null } | null;
  fromUser: { id: number; name: string | null } | null;
  toUser: { id: number; name: string | null } | null;
  createdAt: D;
}

/** GET /tickets/{id}/log: the ticket's trail, oldest first. */
export interface TicketLogListView<D = string> {
  logs: TicketLogView<D>[];
}

/** One of the user's own live sessions (GET /auth/sessions): where and when, never its secrets. */
export interface OwnSessionView<D = string> {
  id: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: D;
  lastUsedAt: D;
  /** The session this request came with. */
  current: boolean;
}

/** GET /auth/sessions: most recently used first, and how many sessions the company allows a user at once. */
export interface OwnSessionsView<D = string> {
  sessions: OwnSessionView<D>[];
  allowed: number;
}
