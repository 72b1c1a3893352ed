import type { EntityManager } from '@mikro-orm/postgresql';
import { DELETED_MESSAGE_PREVIEW } from '@atrium/shared';
import { requireTenant } from '../../db/tenant.js';
import { Message, type MediaType } from './message.entity.js';

export interface NewMessage {
  /** Null for a message sent to a bare number; then chatContactId names whose history it is in. */
  ticketId: number | null;
  chatContactId?: number | null;
  wid: string | null;
  whatsappId: number | null;
  contactId: number | null;
  userId?: number | null;
  body: string;
  fromMe: boolean;
  read?: boolean;
  ack?: number;
  mediaType: MediaType;
  mediaUrl?: string | null;
  mediaName?: string | null;
  mediaStatus?: Message['mediaStatus'];
  quotedMsgId?: number | null;
  isSystem?: boolean;
  participant?: string | null;
  raw?: unknown;
  createdAt?: Date;
}

/**
 * Inserts a message once per (connection, channel id). Returns the stored message and whether this
 * call created it; a replayed delivery returns the existing row with created=false. When the platform
 * stores a message it sent itself and the channel's echo got there first, `claim` marks the row as ours.
 */
export const storeMessage = async (
  em: EntityManager,
  data: NewMessage,
  options: { claim?: boolean } = {},
): Promise<{ message: Message; created: boolean }> => {
  const companyId = requireTenant(em);
  const rows: ({ id: number; inserted: boolean } & Record<string, unknown>)[] = await em.execute(
    `insert into messages (company_id, ticket_id, chat_contact_id, wid, whatsapp_id, contact_id, user_id, body, from_me, read, ack,
        media_type, media_url, media_name, media_status, quoted_msg_id, is_deleted, is_edited, is_system, participant, raw, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false, false, ?, ?, ?, ?, now())
     on conflict (whatsapp_id, wid) do ${
       options.claim ? 'update set user_id = excluded.user_id, is_system = excluded.is_system, updated_at = now()' : 'nothing'
     }
     returning *, (xmax = 0) as inserted`,
    [
      companyId,
      data.ticketId,
      data.chatContactId ?? null,
      data.wid,
      data.whatsappId,
      data.contactId,
      data.userId ?? null,
      data.body,
      data.fromMe,
      data.read ?? data.fromMe,
      data.ack ?? 0,
      data.mediaType,
      data.mediaUrl ?? null,
      data.mediaName ?? null,
      data.mediaStatus ?? null,
      data.quotedMsgId ?? null,
      data.isSystem ?? false,
      data.participant ?? null,
      data.raw === undefined || data.raw === null ? null : JSON.stringify(data.raw),
      data.createdAt ?? new Date(),
    ],
  );
  if (rows.length > 0) {
    // The inserted row becomes the managed entity without reading it back.
    const { inserted, ...row } = rows[0];
    return { message: em.map(Message, row), created: inserted };
  }
  const existing = await em.findOneOrFail(Message, { whatsappId: data.whatsappId, wid: data.wid });
  return { message: existing, created: false };
};

const LABELS: Partial<Record<MediaType, string>> = {
  image: '📷',
  audio: '🎤',
  video: '🎥',
  application: '📄',
  document: '📄',
  sticker: '🏷️',
  locationMessage: '📍',
  vcard: '👤',
  contactMessage: '👤',
  call_log: '📞',
  unavailable: '⚠️',
};

/** The symbol of each kind of placeholder (the body of an `unavailable` message) the clients describe. */
const PLACEHOLDER_LABELS: Record<string, string> = {
  viewOnce: '👁️',
  lottieSticker: '🏷️',
  event: '📅',
  interactive: '🔘',
  order: '🛒',
  product: '🛍️',
  groupInvite: '👥',
  payment: '💳',
  pollVote: '🗳️',
};

/** The ticket list's preview of a message: its text, or a symbol and the file name for media. */
export const previewOf = (m: { body: string; mediaType: MediaType; mediaName?: string | null; isDeleted?: boolean }): string => {
  if (m.isDeleted) return DELETED_MESSAGE_PREVIEW;
  if (m.mediaType === 'locationMessage') return `${LABELS.locationMessage} ${m.body.split('|')[2] ?? ''}`.trim();
  if (m.mediaType === 'vcard' || m.mediaType === 'contactMessage') {
    const name = /FN[^:]*:(.*)/.exec(m.body)?.[1]?.trim();
    return `${LABELS.vcard} ${name ?? ''}`.trim();
  }
  if (m.mediaType === 'chat') return m.body.slice(0, 255);
  // A placeholder's body names its kind for the clients to describe; the list shows its symbol.
  if (m.mediaType === 'unavailable') return PLACEHOLDER_LABELS[m.body] ?? LABELS.unavailable!;
  const label = LABELS[m.mediaType] ?? '';
  return `${label} ${m.body || m.mediaName || ''}`.trim().slice(0, 255);
};

/**
 * The counters a stored message moves on its ticket, as one SQL assignment list, so the inbound batch
 * statement, the inbound general path and the outbox apply the same rule. Unread counts the customer's
 * messages since a person last read the conversation (spec 03's note): an incoming message adds one; a
 * message of ours resets the count only when a person wrote it (`read`: an agent's reply, a message typed
 * on the phone). What the company's automation sends (the chatbot's menu, greetings, out-of-hours replies,
 * schedules, campaigns) neither counts nor resets, so a conversation handed over by the bot still shows
 * what the customer wrote. The preview and its time follow the newest message only, so a late or concurrent
 * one never rolls the preview back. The arguments are SQL expressions (a column of the statement's input,
 * or a parameter).
 */
export const messageCounters = (ticket: string, message: { fromMe: string; read: string; at: string; preview: string }): string => {
  const newest = `${ticket}.last_message_at is null or ${ticket}.last_message_at <= ${message.at}`;
  return `unread_messages = case when ${message.read} then 0 when ${message.fromMe} then ${ticket}.unread_messages else ${ticket}.unread_messages + 1 end,
    last_message = case when ${newest} then ${message.preview} else ${ticket}.last_message end,
    last_from_me = case when ${newest} then ${message.fromMe} else ${ticket}.last_from_me end,
    last_message_at = greatest(coalesce(${ticket}.last_message_at, ${message.at}), ${message.at}),
    updated_at = now()`;
};
