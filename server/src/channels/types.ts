import type { Readable } from 'node:stream';
import type { Logger } from '../logger.js';

/**
 * The messaging-channel contract. A provider turns its network's events into these plain shapes;
 * nothing here knows about tickets, and nothing in tickets knows about a provider.
 */
export type ChannelStatus = 'OPENING' | 'qrcode' | 'PAIRING' | 'CONNECTED' | 'TIMEOUT' | 'DISCONNECTED';

export type InboundMediaType =
  | 'chat'
  | 'image'
  | 'audio'
  | 'video'
  | 'application'
  | 'document'
  | 'sticker'
  | 'locationMessage'
  | 'vcard'
  | 'contactMessage'
  | 'call_log'
  | 'reactionMessage'
  /** A message that came without readable content (undecryptable, an ad's lead): a placeholder. */
  | 'unavailable';

/** A person or group as the channel identifies it. `number`: digits with country code; `lid`: privacy id digits. */
export interface ChannelPeer {
  number: string | null;
  lid: string | null;
  name?: string;
  isGroup?: boolean;
}

export interface InboundMedia {
  mimetype: string;
  filename?: string;
  data: Buffer;
}

export interface InboundMessage {
  /** The channel's message id (unique per connection). */
  id: string;
  /** Typed on the connected phone itself (or sent by us and echoed). */
  fromMe: boolean;
  /** The conversation: the customer in a 1:1 chat, the group in a group chat. */
  chat: ChannelPeer;
  /** Who wrote it inside a group; absent in 1:1 chats. */
  participant?: ChannelPeer;
  body: string;
  mediaType: InboundMediaType;
  media?: InboundMedia;
  /**
   * The media is not in `media`: `pending`, the provider fetches it after this message is stored and
   * hands it over with `mediaDownloaded`; `failed`, it could not be had at all.
   */
  mediaStatus?: 'pending' | 'failed';
  quotedId?: string;
  /** The id of the button or list row the customer tapped (the text is in `body`). */
  replyId?: string;
  timestamp: Date;
  /** The provider's own message object, kept to quote or re-download it. */
  raw?: unknown;
}

/** What a status report says besides the status. */
export interface StatusInfo {
  number?: string;
  reason?: string;
  /** The phone is no longer linked (logged out, credentials forgotten): the stored number goes too. */
  unlinked?: boolean;
}

export interface UpdateAuthor {
  chat: ChannelPeer;
  fromMe: boolean;
  participant?: ChannelPeer;
  groupAdmin?: boolean;
}

export interface MessageUpdate {
  id: string;
  fromMe?: boolean;
  ack?: number;
  /** The sender edited the text. */
  editedBody?: string;
  /** The sender deleted it for everyone. */
  revoked?: boolean;
  /**
   * Who sent the edit or the delete (the chat it came through, whether it was this account, and in a group
   * the participant and whether they are an admin): applied only when that is the message's own sender (or,
   * for a delete, a group admin). Without it an edit or delete is ignored.
   */
  author?: UpdateAuthor;
  /** An error receipt for one of our messages: the network refused it (the reason's error code). */
  sendError?: 'ERR_WAPP_SEND_REFUSED' | 'ERR_WAPP_ACCOUNT_RESTRICTED';
  /** `id` is a message someone took their reaction off: in a group, `participant` says who. */
  reactionRemoved?: { fromMe: boolean; participant?: ChannelPeer };
}

/** The media of a message delivered with `mediaStatus: 'pending'`. */
export type MediaDownload =
  | {
      id: string;
      mimetype: string;
      filename?: string;
      /** The size the sender announced, when known (a larger file is refused before any byte is read). */
      fileLength?: number;
      /** Starts the download: the decrypted bytes as a stream, to read once (to a file, never whole in memory). */
      open(): Promise<Readable>;
    }
  | { id: string; error: string };

export interface CallEvent {
  from: ChannelPeer;
  status: 'offer' | 'ringing' | 'timeout' | 'reject' | 'accept' | 'terminate';
  at: Date;
}

/** What a session reports. Handlers are awaited; a rejection is logged by the caller. */
export interface ChannelEvents {
  qr(code: string): Promise<void> | void;
  status(status: ChannelStatus, info?: StatusInfo): Promise<void> | void;
  message(message: InboundMessage): Promise<void>;
  messageUpdate(update: MessageUpdate): Promise<void>;
  contactUpdate(peer: ChannelPeer & { profilePicUrl?: string }): Promise<void>;
  call?(call: CallEvent): Promise<void>;
  /** A pending media is here (or will never be): the stored message is completed. */
  mediaDownloaded?(download: MediaDownload): Promise<void>;
  /** The provider's own object of a message this connection sent (its `raw`), to send it again on request; null when unknown. */
  sentMessage?(id: string): Promise<unknown>;
}

export interface QuotedRef {
  id: string;
  fromMe: boolean;
  body?: string;
  raw?: unknown;
}

export interface OutboundText {
  /** The message id, chosen by the caller before sending (the outbox keeps it to settle a crash). */
  id?: string;
  to: ChannelPeer;
  text: string;
  quoted?: QuotedRef;
}

export interface OutboundMedia {
  id?: string;
  to: ChannelPeer;
  data: Buffer;
  mimetype: string;
  filename: string;
  caption?: string;
  /** A recorded voice note (push-to-talk) rather than an audio file. */
  voiceNote?: boolean;
  quoted?: QuotedRef;
}

export interface SentMessage {
  id: string;
  timestamp: Date;
  raw?: unknown;
}

/** Persistent key/value storage for a session's credentials (kept in PostgreSQL). */
export interface AuthStore {
  get<T = unknown>(key: string): Promise<T | null>;
  getMany<T = unknown>(keys: string[]): Promise<Record<string, T>>;
  set(entries: Record<string, unknown | null>): Promise<void>;
  clear(): Promise<void>;
}

export interface ChannelSession {
  /** Connects; reports OPENING, then qrcode or CONNECTED. Reconnects by itself until stop() or logout(). */
  start(): Promise<void>;
  /** Disconnects and keeps the credentials. */
  stop(): Promise<void>;
  /** Logs the phone out and forgets the credentials. */
  logout(): Promise<void>;
  /** Connected to the network now: sends can go. */
  canSend(): boolean;
  sendText(message: OutboundText): Promise<SentMessage>;
  sendMedia(message: OutboundMedia): Promise<SentMessage>;
  /** Deletes for everyone; `raw` (the stored provider object) gives the exact key it was sent with. */
  deleteMessage(to: ChannelPeer, id: string, fromMe: boolean, raw?: unknown): Promise<void>;
  /** `raw`: the stored provider object of each message, whose address the receipt goes to. */
  markRead(chat: ChannelPeer, ids: { id: string; participant?: string; raw?: unknown }[]): Promise<void>;
  /** The canonical number registered on the network, or null when it is not. */
  checkNumber(number: string): Promise<string | null>;
  /** Shows the customer "typing…" or "recording audio…" (best effort). */
  sendPresence?(to: ChannelPeer, presence: 'composing' | 'recording' | 'paused'): Promise<void>;
  /**
   * Which of these message ids the channel itself recorded as received, where it keeps such a record (the
   * sandbox phone does; null when it keeps none); the outbox asks it to settle sends a crash cut off.
   */
  sentIds?(ids: string[]): Promise<string[] | null>;
  /**
   * Instead of the QR code: a code the phone of `number` types under Linked devices > Link with phone
   * number. Only while the session waits for a scan; absent for a provider without it.
   */
  requestPairingCode?(number: string): Promise<string>;
  /**
   * Fetches the media of a received message again (`raw`: its stored provider object), the same way as a
   * new one: in the background, handed over with `mediaDownloaded` (the stored message must be `pending`
   * by then). Resolves once the download is under way (or already was), not when it ends. Refuses with
   * ERR_WAPP_NOT_INITIALIZED while not connected, ERR_NO_MEDIA_TO_FETCH when `raw` holds no media, and
   * ERR_MEDIA_REFETCH_UNSUPPORTED when the provider cannot have it again. Absent: never possible.
   */
  refetchMedia?(id: string, raw: unknown): Promise<void>;
}

export interface SessionOptions {
  whatsappId: number;
  companyId: number;
  events: ChannelEvents;
  auth: AuthStore;
  logger: Logger;
  /**
   * Whether this process still holds the connection's lease (another process may have taken it over);
   * absent: no other process can run it.
   */
  holdsLease?(): Promise<boolean>;
}

export interface ChannelProvider {
  readonly name: string;
  /** A simulated network (the sandbox phone): its sessions start at once at boot, not staggered. */
  readonly simulated?: boolean;
  /**
   * Its sessions' own methods callable by name from another server process (ReachedSession.command), with
   * JSON arguments and answer: the sandbox phone's controls. Nothing else of a session is.
   */
  readonly commands?: readonly string[];
  createSession(options: SessionOptions): ChannelSession;
  /** Whether these credentials belong to a linked phone (a start would reconnect, not show a QR code). */
  isPaired?(auth: AuthStore): Promise<boolean>;
}
