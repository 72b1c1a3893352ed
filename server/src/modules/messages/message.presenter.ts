import type { EntityManager } from '@mikro-orm/postgresql';
import type { MessageBaseView, MessageView } from '@atrium/shared';
import { camelRow, intArray } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import type { MediaStore } from '../../media/storage.js';
import { Message } from './message.entity.js';

type MessageFields = Pick<
  Message,
  | 'id'
  | 'wid'
  | 'ticketId'
  | 'body'
  | 'fromMe'
  | 'read'
  | 'ack'
  | 'mediaType'
  | 'mediaUrl'
  | 'mediaName'
  | 'mediaStatus'
  | 'isDeleted'
  | 'isEdited'
  | 'isSystem'
  | 'participant'
  | 'contactId'
  | 'userId'
  | 'companyId'
  | 'quotedMsgId'
  | 'sendError'
  | 'createdAt'
  | 'updatedAt'
>;

interface MessageRelations {
  contact?: { id: number; name: string; number: string | null };
  user?: { id: number; name: string };
}

const messageBase = (media: MediaStore, m: MessageFields, { contact, user }: MessageRelations): MessageBaseView<Date> => ({
  id: m.id,
  wid: m.wid,
  ticketId: m.ticketId,
  body: m.isDeleted ? '' : m.body,
  fromMe: m.fromMe,
  read: m.read,
  ack: m.ack,
  mediaType: m.mediaType,
  mediaUrl: m.isDeleted ? null : media.url(m.companyId, m.mediaUrl),
  mediaName: m.mediaName,
  mediaStatus: m.isDeleted ? null : (m.mediaStatus ?? null),
  isDeleted: m.isDeleted,
  isEdited: m.isEdited,
  isSystem: m.isSystem,
  /** Why our message did not leave (an error code); null while waiting or once sent. */
  sendError: m.sendError ?? null,
  participant: m.participant,
  contactId: m.contactId,
  contact: contact ? { id: contact.id, name: contact.name, number: contact.number ?? '' } : null,
  userId: m.userId,
  user: user ? { id: user.id, name: user.name } : null,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

/** A message as the API shows it: signed media URL, sender, and the quoted message (already presented). */
export const messageView = (
  media: MediaStore,
  m: MessageFields,
  related: MessageRelations,
  quoted: MessageBaseView<Date> | null,
): MessageView<Date> => ({ ...messageBase(media, m, related), quotedMsgId: m.quotedMsgId, quotedMsg: quoted });

export type PresentedMessage = MessageView<Date>;

type Related = { id: number; name: string; number?: string | null } | null;

/**
 * Messages by id, as the API shows them (signed media URLs, the sender, the quoted message in full), in the
 * order asked, read in one statement (a conversation's page: its hot path). `em` is bound to the company.
 * The one loader of the message view: what it shows is what the database holds.
 */
export const presentMessages = async (em: EntityManager, media: MediaStore, messageIds: number[]): Promise<MessageView<Date>[]> => {
  if (messageIds.length === 0) return [];
  const sender = (alias: string) =>
    `(select json_build_object('id', c.id, 'name', c.name, 'number', c.number) from contacts c where c.id = ${alias}.contact_id) as contact,
     (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = ${alias}.user_id) as "user"`;
  const rows = await em.execute<
    { message: Record<string, unknown>; contact: Related; user: Related; quoted: { message: Record<string, unknown>; contact: Related; user: Related } | null }[]
  >(
    `select to_jsonb(m) - 'raw' as message, ${sender('m')},
            (select to_jsonb(x) from (select to_jsonb(q) - 'raw' as message, ${sender('q')} from messages q where q.id = m.quoted_msg_id) x) as quoted
       from messages m where m.id = any(?::int[]) and m.company_id = ?`,
    [intArray(messageIds), requireTenant(em)],
  );
  const relations = (r: { contact: Related; user: Related }): MessageRelations => ({
    contact: r.contact ? { id: r.contact.id, name: r.contact.name, number: r.contact.number ?? null } : undefined,
    user: r.user ?? undefined,
  });
  const byId = new Map(
    rows.map((r) => {
      const message = camelRow<Message>(r.message);
      const quoted = r.quoted ? messageBase(media, camelRow<Message>(r.quoted.message), relations(r.quoted)) : null;
      return [message.id, messageView(media, message, relations(r), quoted)] as const;
    }),
  );
  return messageIds.flatMap((id) => byId.get(id) ?? []);
};

/** One message as the API shows it; the manager's pending changes are written first, since the view is read back. */
export const presentMessage = async (em: EntityManager, media: MediaStore, message: Pick<Message, 'id'>): Promise<MessageView<Date>> => {
  await em.flush();
  const [view] = await presentMessages(em, media, [message.id]);
  return view;
};
