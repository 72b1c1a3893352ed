import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChannelManager } from '../../channels/manager.js';
import type { ChannelPeer, QuotedRef, SentMessage } from '../../channels/types.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { MediaStore } from '../../media/storage.js';
import { Company } from '../companies/company.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { presentContact, presentTicket } from '../tickets/ticket.presenter.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { Message, type MediaType } from './message.entity.js';
import { presentMessages } from './message.presenter.js';
import { previewOf, storeMessage } from './message-store.js';
import { renderVariables } from './variables.js';

/** What sending needs besides the entity manager. */
export interface ConversationDeps {
  channels: ChannelManager;
  media: MediaStore;
  events: EventBus;
}

export const peerOf = (contact: Contact): ChannelPeer => ({
  number: contact.number,
  lid: contact.lid,
  name: contact.name,
  isGroup: contact.isGroup,
});

const quotedRefOf = async (em: EntityManager, quotedMsgId: number | null | undefined): Promise<{ ref?: QuotedRef; id: number | null }> => {
  if (!quotedMsgId) return { id: null };
  const quoted = await em.findOne(Message, quotedMsgId, { populate: ['raw'] });
  if (!quoted || !quoted.wid) return { id: null };
  return { id: quoted.id, ref: { id: quoted.wid, fromMe: quoted.fromMe, body: quoted.body, raw: quoted.raw ?? undefined } };
};

/** Fills the message variables for this ticket's contact, in the company's time zone. */
export const renderForTicket = async (em: EntityManager, ticket: Ticket, text: string): Promise<string> => {
  if (!text.includes('{{')) return text;
  const [contact, company] = await Promise.all([
    em.findOneOrFail(Contact, ticket.contactId),
    em.findOneOrFail(Company, ticket.companyId),
  ]);
  return renderVariables(text, {
    contactName: contact.name,
    timeZone: company.timezone,
    protocolSeed: { ticketId: ticket.id, createdAt: ticket.createdAt },
  });
};

const sessionFor = (deps: ConversationDeps, ticket: Ticket) => {
  if (!ticket.whatsappId) throw new AppError('ERR_NO_WAPP_FOUND');
  return deps.channels.get(ticket.whatsappId);
};

const viaChannel = async (send: () => Promise<SentMessage>): Promise<SentMessage> => {
  try {
    return await send();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_SENDING_WAPP_MSG');
  }
};

/**
 * Records a message the platform sent (at send time, not on the channel's echo), moves the ticket's
 * preview and marks the ticket read, then announces it.
 */
const recordOutbound = async (
  deps: ConversationDeps,
  em: EntityManager,
  ticket: Ticket,
  sent: SentMessage,
  fields: { body: string; mediaType: MediaType; mediaUrl?: string | null; mediaName?: string | null; userId: number | null; isSystem: boolean; quotedMsgId: number | null },
) => {
  const { message } = await storeMessage(
    em,
    {
      ticketId: ticket.id,
      wid: sent.id,
      whatsappId: ticket.whatsappId,
      contactId: null,
      userId: fields.userId,
      body: fields.body,
      fromMe: true,
      read: true,
      ack: 1,
      mediaType: fields.mediaType,
      mediaUrl: fields.mediaUrl,
      mediaName: fields.mediaName,
      quotedMsgId: fields.quotedMsgId,
      isSystem: fields.isSystem,
      raw: sent.raw,
      createdAt: sent.timestamp,
    },
    { claim: true },
  );
  ticket.lastMessage = previewOf(message);
  ticket.lastMessageAt = message.createdAt;
  ticket.lastFromMe = true;
  ticket.unreadMessages = 0;
  ticket.updatedAt = new Date();
  await em.flush();
  const [presented] = await presentMessages(em, deps.media, [message]);
  const contact = await em.findOne(Contact, ticket.contactId);
  deps.events.emit('message.created', {
    companyId: ticket.companyId,
    message: presented,
    ticket: await presentTicket(em, ticket),
    contact: contact ? presentContact(contact) : null,
    isNewTicket: false,
  });
  return presented;
};

export interface SendTextOptions {
  body: string;
  userId?: number | null;
  /** Sent by the platform (greeting, rating request...) rather than typed by an agent. */
  isSystem?: boolean;
  quotedMsgId?: number | null;
  /** Fill {{name}} and friends (default true). */
  render?: boolean;
}

export const sendText = async (deps: ConversationDeps, em: EntityManager, ticket: Ticket, options: SendTextOptions) => {
  const contact = await em.findOneOrFail(Contact, ticket.contactId);
  const body = options.render === false ? options.body : await renderForTicket(em, ticket, options.body);
  const quoted = await quotedRefOf(em, options.quotedMsgId);
  const session = sessionFor(deps, ticket);
  const sent = await viaChannel(() => session.sendText({ to: peerOf(contact), text: body, quoted: quoted.ref }));
  return recordOutbound(deps, em, ticket, sent, {
    body,
    mediaType: 'chat',
    userId: options.userId ?? null,
    isSystem: options.isSystem ?? false,
    quotedMsgId: quoted.id,
  });
};

export interface OutboundFile {
  data: Buffer;
  mimetype: string;
  filename: string;
  caption?: string;
  voiceNote?: boolean;
}

const mediaTypeFor = (mimetype: string): MediaType => {
  const family = mimetype.split('/')[0];
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'application';
};

export const sendMedia = async (
  deps: ConversationDeps,
  em: EntityManager,
  ticket: Ticket,
  file: OutboundFile,
  options: { userId?: number | null; isSystem?: boolean; quotedMsgId?: number | null } = {},
) => {
  const contact = await em.findOneOrFail(Contact, ticket.contactId);
  const caption = file.caption ? await renderForTicket(em, ticket, file.caption) : '';
  const quoted = await quotedRefOf(em, options.quotedMsgId);
  const session = sessionFor(deps, ticket);
  const stored = await deps.media.save(ticket.companyId, { data: file.data, mimetype: file.mimetype, filename: file.filename });
  try {
    const sent = await viaChannel(() =>
      session.sendMedia({
        to: peerOf(contact),
        data: file.data,
        mimetype: stored.mimetype,
        filename: stored.mediaName,
        caption,
        voiceNote: file.voiceNote,
        quoted: quoted.ref,
      }),
    );
    return await recordOutbound(deps, em, ticket, sent, {
      body: caption,
      mediaType: mediaTypeFor(stored.mimetype),
      mediaUrl: stored.fileName,
      mediaName: stored.mediaName,
      userId: options.userId ?? null,
      isSystem: options.isSystem ?? false,
      quotedMsgId: quoted.id,
    });
  } catch (err) {
    await deps.media.remove(ticket.companyId, stored.fileName);
    throw err;
  }
};
