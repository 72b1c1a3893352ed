import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChannelManager } from '../../channels/manager.js';
import type { ChannelPeer } from '../../channels/types.js';
import type { EventBus } from '../../events/bus.js';
import type { MediaStore } from '../../media/storage.js';
import { toVoiceNote, VOICE_NOTE_MIMETYPE } from '../../media/voice-note.js';
import { Company } from '../companies/company.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { renderVariables } from '../messages/index.js';
import { queueOnTicket, type QueueOptions } from './outbox.js';
import type { Ticket } from '../tickets/ticket.entity.js';

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

export interface SendTextOptions {
  body: string;
  userId?: number | null;
  /** Sent by the platform (greeting, rating request...) rather than typed by an agent. */
  isSystem?: boolean;
  quotedMsgId?: number | null;
  /** Fill {{name}} and friends (default true). */
  render?: boolean;
  /** "typing…" shown before it, for a time. */
  presence?: QueueOptions['presence'];
  /** Not before this time. */
  plannedAt?: Date;
  priority?: QueueOptions['priority'];
  pacing?: QueueOptions['pacing'];
  /** Who asked (default: the agent `userId`, else the system). */
  source?: QueueOptions['source'];
}

/** Queues a text on the ticket's conversation (the outbox sends it); answers the message, waiting to leave. */
export const sendText = async (deps: ConversationDeps, em: EntityManager, ticket: Ticket, options: SendTextOptions) => {
  const body = options.render === false ? options.body : await renderForTicket(em, ticket, options.body);
  return queueOnTicket(deps, em, ticket, {
    body,
    userId: options.userId,
    isSystem: options.isSystem,
    quotedMsgId: options.quotedMsgId,
    presence: options.presence,
    plannedAt: options.plannedAt,
    priority: options.priority,
    pacing: options.pacing,
    source: options.source,
  });
};

export interface OutboundFile {
  data: Buffer;
  mimetype: string;
  filename: string;
  caption?: string;
  voiceNote?: boolean;
}

/**
 * A recorded voice note as phones play it (Ogg/Opus mono, see media/voice-note.ts); any other file as it
 * is. Runs ffmpeg: call it before any database transaction, never inside one.
 */
export const asVoiceNote = async (file: OutboundFile): Promise<OutboundFile> => {
  if (!file.voiceNote) return file;
  const data = await toVoiceNote(file.data);
  const base = path.basename(file.filename, path.extname(file.filename)) || 'voice-note';
  return { ...file, data, mimetype: VOICE_NOTE_MIMETYPE, filename: `${base}.ogg` };
};

/** Stores the file and queues it on the ticket's conversation, captioned (variables filled). */
export const sendMedia = async (
  deps: ConversationDeps,
  em: EntityManager,
  ticket: Ticket,
  file: OutboundFile,
  options: Omit<SendTextOptions, 'body' | 'render'> = {},
) => {
  const caption = file.caption ? await renderForTicket(em, ticket, file.caption) : '';
  const stored = await deps.media.save(ticket.companyId, { data: file.data, mimetype: file.mimetype, filename: file.filename });
  try {
    return await queueOnTicket(deps, em, ticket, {
      body: caption,
      userId: options.userId,
      isSystem: options.isSystem,
      quotedMsgId: options.quotedMsgId,
      presence: options.presence,
      plannedAt: options.plannedAt,
      priority: options.priority,
      pacing: options.pacing,
      source: options.source,
      media: { fileName: stored.fileName, mediaName: stored.mediaName, mimetype: stored.mimetype, voiceNote: file.voiceNote },
    });
  } catch (err) {
    await deps.media.remove(ticket.companyId, stored.fileName);
    throw err;
  }
};
