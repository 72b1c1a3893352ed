import {
  ACCOUNT_RESTRICTED_TEXT,
  decryptPollVote,
  getContentType,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  jidDecode,
  normalizeMessageContent,
  proto,
  toNumber,
  type Contact,
  type MessageUserReceiptUpdate,
  type WACallEvent,
  type WAMessageKey,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { CallEvent, ChannelPeer, InboundMediaType, InboundMessage, MessageUpdate, UpdateAuthor } from '../types.js';

/**
 * Pure translations between what Baileys emits and the channel contract (../types.ts).
 * Nothing here touches a socket, the network or the clock beyond a missing-timestamp fallback.
 */

const PN_SERVERS = new Set(['s.whatsapp.net', 'c.us', 'hosted']);
const LID_SERVERS = new Set(['lid', 'hosted.lid']);

/** The logged-in account, so that its own ids are never taken for the other side of a chat. */
export interface OwnIdentity {
  number?: string | null;
  lid?: string | null;
}

export interface MappingContext {
  /** The group's subject when the session already knows it (cached metadata, never fetched here). */
  groupName?: (groupJid: string) => string | undefined;
  me?: OwnIdentity;
}

/** What the session must download and attach as InboundMessage.media. */
export interface MediaDescriptor {
  mimetype: string;
  filename?: string;
  /** The size the sender announced (bytes). */
  fileLength?: number;
}

/** A proto size (a number or a Long) as a number; undefined when absent. */
const sizeOf = (length: number | { toNumber(): number } | null | undefined): number | undefined => {
  if (length === null || length === undefined) return undefined;
  const n = typeof length === 'number' ? length : length.toNumber();
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

export type BaileysMapped =
  | { kind: 'message'; message: InboundMessage; media?: MediaDescriptor }
  | { kind: 'update'; update: MessageUpdate };

/** The account behind a jid: `number` for phone-number jids, `lid` for privacy ids. */
export const identityOf = (jid: string | null | undefined): { number?: string; lid?: string } => {
  const decoded = jidDecode(jid ?? undefined);
  if (!decoded?.user || !/^\d+$/.test(decoded.user)) return {};
  if (PN_SERVERS.has(decoded.server)) return { number: decoded.user };
  if (LID_SERVERS.has(decoded.server)) return { lid: decoded.user };
  return {};
};

/** One peer from a jid and its alternative (Baileys 7 gives the phone jid beside a LID jid when known). */
export const peerFromJids = (...jids: (string | null | undefined)[]): ChannelPeer => {
  const peer: ChannelPeer = { number: null, lid: null };
  for (const jid of jids) {
    const id = identityOf(jid);
    peer.number ??= id.number ?? null;
    peer.lid ??= id.lid ?? null;
  }
  return peer;
};

/** The jid to write to: the phone number when known, else the LID, or the group. */
export const jidForPeer = (peer: ChannelPeer): string => {
  if (peer.isGroup) {
    const id = (peer.number ?? '').split('@')[0];
    if (!/^[\d-]+$/.test(id)) throw new AppError('ERR_WAPP_INVALID_CONTACT');
    return `${id}@g.us`;
  }
  const number = (peer.number ?? '').replace(/\D/g, '');
  if (number) return `${number}@s.whatsapp.net`;
  const lid = (peer.lid ?? '').replace(/\D/g, '');
  if (lid) return `${lid}@lid`;
  throw new AppError('ERR_WAPP_INVALID_CONTACT');
};

/** The MIME family for media types the contract knows; everything else is an application file. */
export const mediaTypeForMime = (mimetype: string): InboundMediaType => {
  const family = mimetype.split('/')[0].trim().toLowerCase();
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'application';
};

const text = (value: string | null | undefined): string => value ?? '';

/** Text of a message content (used for edits), or undefined when it has no text. */
export const textOf = (content: proto.IMessage | null | undefined): string | undefined => {
  const message = normalizeMessageContent(content);
  if (!message) return undefined;
  if (message.conversation) return message.conversation;
  if (message.extendedTextMessage?.text) return message.extendedTextMessage.text;
  const media =
    message.imageMessage ?? message.videoMessage ?? message.documentMessage ?? message.ptvMessage ?? undefined;
  if (media?.caption) return media.caption;
  return undefined;
};

const locationBody = (
  location: proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage,
  described: (string | null | undefined)[],
): string => {
  const lat = location.degreesLatitude ?? 0;
  const lng = location.degreesLongitude ?? 0;
  const thumb = location.jpegThumbnail?.length
    ? `data:image/jpeg;base64,${Buffer.from(location.jpegThumbnail).toString('base64')}`
    : '';
  const link = `https://maps.google.com/maps?q=${lat}%2C${lng}&z=17`;
  const description = described.filter((part): part is string => !!part).join(' - ') || `${lat}, ${lng}`;
  // The pipe separates the parts of the body, so it cannot appear inside one.
  return [thumb, link, description.replace(/\|/g, '/')].join('|');
};

interface Content {
  body: string;
  mediaType: InboundMediaType;
  media?: MediaDescriptor;
  contextInfo?: proto.IContextInfo | null;
  /** The message this one refers to, when not through contextInfo (a reaction's target). */
  quotedId?: string;
}

/** The body, type and media of the content types we accept; undefined for everything we drop. */
const readContent = (message: proto.IMessage): Content | undefined => {
  const type = getContentType(message);
  switch (type) {
    case 'conversation':
      return { body: text(message.conversation), mediaType: 'chat' };
    case 'extendedTextMessage': {
      const m = message.extendedTextMessage!;
      return { body: text(m.text), mediaType: 'chat', contextInfo: m.contextInfo };
    }
    case 'imageMessage': {
      const m = message.imageMessage!;
      return { body: text(m.caption), mediaType: 'image', media: { mimetype: m.mimetype || 'image/jpeg', fileLength: sizeOf(m.fileLength) }, contextInfo: m.contextInfo };
    }
    case 'videoMessage':
    case 'ptvMessage': {
      const m = (message.videoMessage ?? message.ptvMessage)!;
      return { body: text(m.caption), mediaType: 'video', media: { mimetype: m.mimetype || 'video/mp4', fileLength: sizeOf(m.fileLength) }, contextInfo: m.contextInfo };
    }
    case 'audioMessage': {
      const m = message.audioMessage!;
      return { body: '', mediaType: 'audio', media: { mimetype: m.mimetype || 'audio/ogg; codecs=opus', fileLength: sizeOf(m.fileLength) }, contextInfo: m.contextInfo };
    }
    case 'documentMessage': {
      const m = message.documentMessage!;
      const mimetype = m.mimetype || 'application/octet-stream';
      const filename = m.fileName || m.title || undefined;
      return { body: text(m.caption), mediaType: mediaTypeForMime(mimetype), media: { mimetype, filename, fileLength: sizeOf(m.fileLength) }, contextInfo: m.contextInfo };
    }
    case 'stickerMessage': {
      const m = message.stickerMessage!;
      return { body: '', mediaType: 'sticker', media: { mimetype: m.mimetype || 'image/webp', fileLength: sizeOf(m.fileLength) }, contextInfo: m.contextInfo };
    }
    case 'locationMessage': {
      const m = message.locationMessage!;
      return { body: locationBody(m, [m.name, m.address]), mediaType: 'locationMessage', contextInfo: m.contextInfo };
    }
    case 'liveLocationMessage': {
      const m = message.liveLocationMessage!;
      return { body: locationBody(m, [m.caption]), mediaType: 'locationMessage', contextInfo: m.contextInfo };
    }
    case 'contactMessage':
      return { body: text(message.contactMessage!.vcard), mediaType: 'contactMessage', contextInfo: message.contactMessage!.contextInfo };
    case 'contactsArrayMessage': {
      const m = message.contactsArrayMessage!;
      const vcards = (m.contacts ?? []).map((c) => c.vcard).filter((v): v is string => !!v);
      return { body: vcards.join('\n'), mediaType: 'vcard', contextInfo: m.contextInfo };
    }
    case 'buttonsResponseMessage': {
      const m = message.buttonsResponseMessage!;
      return { body: text(m.selectedDisplayText), mediaType: 'chat', contextInfo: m.contextInfo };
    }
    case 'templateButtonReplyMessage': {
      const m = message.templateButtonReplyMessage!;
      return { body: text(m.selectedDisplayText), mediaType: 'chat', contextInfo: m.contextInfo };
    }
    case 'listResponseMessage': {
      const m = message.listResponseMessage!;
      return { body: text(m.title), mediaType: 'chat', contextInfo: m.contextInfo };
    }
    case 'reactionMessage': {
      // A reaction is a message of its own (spec 03 section 7), linked to the message reacted to (one taken
      // back, with an empty text, is an update: see toInboundMessage).
      const m = message.reactionMessage!;
      if (!m.text) return undefined;
      return { body: m.text, mediaType: 'reactionMessage', quotedId: m.key?.id ?? undefined };
    }
    case 'pollCreationMessage':
    case 'pollCreationMessageV2':
    case 'pollCreationMessageV3':
    case 'pollCreationMessageV5': {
      // The question and its options are what was asked (votes: readPollVote).
      const m = message[type]!;
      const options = (m.options ?? []).map((o) => `• ${text(o.optionName)}`);
      return { body: [`📊 ${text(m.name)}`, ...options].join('\n'), mediaType: 'chat', contextInfo: m.contextInfo };
    }
    case 'pollUpdateMessage':
      // A vote arrives encrypted with the poll's secret: the session reads it when it has the poll
      // (readPollVote); until then a placeholder under the poll.
      return { body: PLACEHOLDER_KINDS.pollUpdateMessage, mediaType: 'unavailable', quotedId: message.pollUpdateMessage!.pollCreationMessageKey?.id ?? undefined };
    case 'interactiveResponseMessage': {
      // The customer's answer to an interactive message (a flow's button): the text it showed them.
      const m = message.interactiveResponseMessage!;
      const body = m.body?.text;
      return body ? { body, mediaType: 'chat', contextInfo: m.contextInfo } : placeholderOf(type, m.contextInfo);
    }
    default:
      if (!type || HOUSEKEEPING.has(type)) return undefined;
      return placeholderOf(type, (message[type] as { contextInfo?: proto.IContextInfo | null } | null | undefined)?.contextInfo);
  }
};

/**
 * Content types that carry nothing a person reads (key distribution, pins, keep-in-chat, encrypted reactions
 * and event answers, an album's header whose photos come as messages of their own): dropped. Every other
 * type we cannot show becomes a placeholder, so no customer message vanishes.
 */
const HOUSEKEEPING = new Set<string>([
  'senderKeyDistributionMessage',
  'fastRatchetKeySenderKeyDistributionMessage',
  'protocolMessage',
  'deviceSentMessage',
  'keepInChatMessage',
  'pinInChatMessage',
  'encReactionMessage',
  'encCommentMessage',
  'encEventResponseMessage',
  'secretEncryptedMessage',
  'stickerSyncRmrMessage',
  'albumMessage',
  'messageHistoryBundle',
  'messageHistoryNotice',
  'statusNotificationMessage',
  'limitSharingMessage',
  'botInvokeMessage',
]);

/**
 * The kind a placeholder names (its body), for the types the clients describe in words ("the customer sent
 * an order; see it on the phone"); any other type is named by its proto field, which the clients show as
 * a message that cannot be shown here.
 */
export const PLACEHOLDER_KINDS: Record<string, string> = {
  lottieStickerMessage: 'lottieSticker',
  eventMessage: 'event',
  interactiveMessage: 'interactive',
  interactiveResponseMessage: 'interactive',
  listMessage: 'interactive',
  buttonsMessage: 'interactive',
  templateMessage: 'interactive',
  highlyStructuredMessage: 'interactive',
  orderMessage: 'order',
  invoiceMessage: 'order',
  productMessage: 'product',
  groupInviteMessage: 'groupInvite',
  sendPaymentMessage: 'payment',
  requestPaymentMessage: 'payment',
  paymentInviteMessage: 'payment',
  declinePaymentRequestMessage: 'payment',
  cancelPaymentRequestMessage: 'payment',
  pollUpdateMessage: 'pollVote',
};

/** The kinds of placeholder the clients describe; the body of an `unavailable` message is one of these or a proto type. */
export const PLACEHOLDER_VIEW_ONCE = 'viewOnce';

const placeholderOf = (type: string, contextInfo?: proto.IContextInfo | null): Content => ({
  body: PLACEHOLDER_KINDS[type] ?? type,
  mediaType: 'unavailable',
  contextInfo,
});

const isOwn = (jid: string | null | undefined, me: OwnIdentity | undefined): boolean => {
  if (!me) return false;
  const id = identityOf(jid);
  return (!!id.number && id.number === me.number) || (!!id.lid && id.lid === me.lid);
};

const timestampOf = (value: proto.IWebMessageInfo['messageTimestamp']): Date => {
  const seconds = toNumber(value ?? 0);
  return seconds > 0 ? new Date(seconds * 1000) : new Date();
};

/**
 * Who sent an edit or a delete, read from the key of the message that carries it (for Baileys' own
 * messages.update, the key of the protocol message with the target's id): the chat, whether it was this
 * account, and in a group the participant.
 */
export const authorOf = (key: WAMessageKey, participant?: string | null): UpdateAuthor => {
  const remoteJid = key.remoteJid ?? '';
  const fromMe = !!key.fromMe;
  if (isJidGroup(remoteJid)) {
    const author: UpdateAuthor = { chat: { number: jidDecode(remoteJid)!.user, lid: null, isGroup: true }, fromMe };
    const sender = peerFromJids(key.participant ?? participant, key.participantAlt);
    if (sender.number || sender.lid) author.participant = sender;
    return author;
  }
  return { chat: peerFromJids(remoteJid, key.remoteJidAlt), fromMe };
};

/**
 * Maps one message Baileys emitted (messages.upsert) to an inbound message, or to an update of an earlier
 * one (edit, delete for everyone), or null when the message is dropped (status broadcasts, newsletters,
 * protocol messages other than edit and revoke, housekeeping content, stubs other than an undecryptable
 * message's). A customer's content we cannot show (view-once, orders, events...) is a placeholder naming it.
 * Media are described, not downloaded: the session fetches them.
 */
export function toInboundMessage(msg: proto.IWebMessageInfo, context: MappingContext = {}): BaileysMapped | null {
  const key = msg.key as WAMessageKey | null | undefined;
  const remoteJid = key?.remoteJid;
  if (!key?.id || !remoteJid) return null;
  if (isJidBroadcast(remoteJid) || isJidNewsletter(remoteJid)) return null;
  const fromMe = !!key.fromMe;

  const wrapped = msg.message;
  const content = normalizeMessageContent(wrapped);
  let read: Content | undefined;
  if (!content) {
    // Baileys' stub for a customer's message it could not decrypt, or that came without content (an ad's
    // lead while the phone was offline): a placeholder, so that the ticket exists and the agent sees the
    // customer wrote. The content, when it comes later with the same id (a retry, the phone's resend),
    // completes it.
    // A view-once photo, video or voice note is not sent to linked devices: Baileys passes on an empty
    // message whose key is flagged isViewOnce (no content, no stub). The customer wrote all the same.
    if (fromMe) return null;
    if (key.isViewOnce) read = { body: PLACEHOLDER_VIEW_ONCE, mediaType: 'unavailable' };
    else if (msg.messageStubType === proto.WebMessageInfo.StubType.CIPHERTEXT) read = { body: '', mediaType: 'unavailable' };
    else return null;
  } else {
    const protocol = content.protocolMessage;
    if (protocol) {
      const targetId = protocol.key?.id;
      if (!targetId) return null;
      // protocol.key is seen from the sender: fromMe there means the sender touched their own message.
      const targetFromMe = protocol.key?.fromMe ? fromMe : undefined;
      if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) {
        return { kind: 'update', update: { id: targetId, fromMe: targetFromMe, revoked: true, author: authorOf(key, msg.participant) } };
      }
      if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
        const editedBody = textOf(protocol.editedMessage);
        if (editedBody === undefined) return null;
        return { kind: 'update', update: { id: targetId, fromMe: targetFromMe, editedBody, author: authorOf(key, msg.participant) } };
      }
      return null;
    }
    if (wrapped?.editedMessage) {
      // An edit wrapper without its protocol message: the new content of this very id.
      const editedBody = textOf(content);
      return editedBody === undefined ? null : { kind: 'update', update: { id: key.id, fromMe, editedBody, author: authorOf(key, msg.participant) } };
    }
    const reaction = content.reactionMessage;
    if (reaction && !reaction.text) {
      // A reaction with no emoji takes the person's earlier reaction to that message off.
      const targetId = reaction.key?.id;
      if (!targetId) return null;
      const by = isJidGroup(remoteJid) && !fromMe ? peerFromJids(key.participant ?? msg.participant, key.participantAlt) : undefined;
      const reactionRemoved = by && (by.number || by.lid) ? { fromMe, participant: by } : { fromMe };
      return { kind: 'update', update: { id: targetId, reactionRemoved } };
    }
    read = readContent(content);
    // What we sent from the phone in a form we cannot show is not the customer's to answer.
    if (read?.mediaType === 'unavailable' && fromMe) return null;
  }
  if (!read) return null;

  let chat: ChannelPeer;
  let participant: ChannelPeer | undefined;
  const senderName = !fromMe && msg.pushName ? msg.pushName : undefined;
  if (isJidGroup(remoteJid)) {
    chat = { number: jidDecode(remoteJid)!.user, lid: null, isGroup: true };
    const name = context.groupName?.(remoteJid);
    if (name) chat.name = name;
    const sender = peerFromJids(key.participant ?? msg.participant, key.participantAlt);
    if (sender.number || sender.lid) participant = senderName ? { ...sender, name: senderName } : sender;
  } else {
    // On our own messages the alternative jid can be our own account's; never take it for the customer.
    const alt = fromMe && isOwn(key.remoteJidAlt, context.me) ? undefined : key.remoteJidAlt;
    chat = peerFromJids(remoteJid, alt);
    if (!chat.number && !chat.lid) return null;
    if (senderName) chat.name = senderName;
  }

  const message: InboundMessage = {
    id: key.id,
    fromMe,
    chat,
    body: read.body,
    mediaType: read.mediaType,
    timestamp: timestampOf(msg.messageTimestamp),
    raw: msg,
  };
  if (participant) message.participant = participant;
  const quotedId = read.quotedId ?? read.contextInfo?.stanzaId;
  if (quotedId) message.quotedId = quotedId;
  return read.media ? { kind: 'message', message, media: read.media } : { kind: 'message', message };
}

/**
 * WhatsApp's delivery status (PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5) as the platform's
 * ack, which the spec and the clients read as 0 waiting, 1 sent, 2 received, 3 read, 4 played: one step lower.
 */
export const ackOf = (status: number): number => Math.max(0, status - 1);

/** messages.update: delivery status (ack), an error receipt, an edit or a delete for everyone; null when it says none of these. */
export const toMessageUpdate = ({ key, update }: WAMessageUpdate): MessageUpdate | null => {
  if (!key.id || !key.remoteJid || isJidBroadcast(key.remoteJid)) return null;
  const result: MessageUpdate = { id: key.id, fromMe: !!key.fromMe };
  let useful = false;
  if (update.status === proto.WebMessageInfo.Status.ERROR) {
    // An error receipt (Baileys: status ERROR with the server's error code, and its account-restricted
    // text when the number is restricted). Only our own messages are refused this way.
    if (key.fromMe) {
      const restricted = (update.messageStubParameters ?? []).includes(ACCOUNT_RESTRICTED_TEXT);
      result.sendError = restricted ? 'ERR_WAPP_ACCOUNT_RESTRICTED' : 'ERR_WAPP_SEND_REFUSED';
      useful = true;
    }
  } else if (typeof update.status === 'number') {
    result.ack = ackOf(update.status);
    useful = true;
  }
  const edited = update.message?.editedMessage?.message;
  if (edited) {
    const editedBody = textOf(edited.protocolMessage?.editedMessage ?? edited);
    if (editedBody !== undefined) {
      result.editedBody = editedBody;
      result.author = authorOf(key);
      useful = true;
    }
  }
  if (update.messageStubType === proto.WebMessageInfo.StubType.REVOKE) {
    // Baileys keeps the revoking message's own key on the update: the author, wherever the target is.
    result.revoked = true;
    result.author = authorOf((update.key as WAMessageKey | undefined) ?? key);
    useful = true;
  }
  return useful ? result : null;
};

/** message-receipt.update (per-user receipts, mostly in groups) as an ack. */
export const toReceiptUpdate = ({ key, receipt }: MessageUserReceiptUpdate): MessageUpdate | null => {
  if (!key.id || !key.remoteJid || isJidBroadcast(key.remoteJid)) return null;
  const ack = receipt.playedTimestamp
    ? proto.WebMessageInfo.Status.PLAYED
    : receipt.readTimestamp
      ? proto.WebMessageInfo.Status.READ
      : receipt.receiptTimestamp
        ? proto.WebMessageInfo.Status.DELIVERY_ACK
        : undefined;
  return ack === undefined ? null : { id: key.id, fromMe: !!key.fromMe, ack: ackOf(ack) };
};

/** contacts.upsert / contacts.update; null when the entry says nothing worth storing. */
export const toContactUpdate = (contact: Partial<Contact>): (ChannelPeer & { profilePicUrl?: string }) | null => {
  if (!contact.id || isJidGroup(contact.id) || isJidBroadcast(contact.id) || isJidNewsletter(contact.id)) return null;
  const peer: ChannelPeer & { profilePicUrl?: string } = peerFromJids(contact.id, contact.lid, contact.phoneNumber);
  if (!peer.number && !peer.lid) return null;
  const name = contact.name || contact.notify || contact.verifiedName;
  if (name) peer.name = name;
  if (contact.imgUrl && /^https?:\/\//.test(contact.imgUrl)) peer.profilePicUrl = contact.imgUrl;
  // A bare id is news only when it links a phone number to a LID.
  if (!name && !peer.profilePicUrl && !(peer.number && peer.lid)) return null;
  return peer;
};

const CALL_STATUSES = new Set<CallEvent['status']>(['offer', 'ringing', 'timeout', 'reject', 'accept', 'terminate']);

export const toCallEvent = (call: WACallEvent): CallEvent | null => {
  if (!CALL_STATUSES.has(call.status as CallEvent['status'])) return null;
  const from = peerFromJids(call.from, call.callerPn);
  if (!from.number && !from.lid) return null;
  return { from, status: call.status as CallEvent['status'], at: call.date instanceof Date ? call.date : new Date() };
};

/** The jids a message mentions (its contextInfo's mentionedJid); in a LID-addressed group they are LIDs. */
export const mentionedJids = (msg: proto.IWebMessageInfo): string[] => {
  const content = normalizeMessageContent(msg.message);
  const type = content ? getContentType(content) : undefined;
  const inner = content && type ? (content[type] as { contextInfo?: proto.IContextInfo | null } | undefined) : undefined;
  return inner && typeof inner === 'object' ? (inner.contextInfo?.mentionedJid ?? []) : [];
};

/** The options of a poll creation message (any version); undefined when the message is not a poll. */
const pollOf = (message: proto.IMessage): { options: string[] } | undefined => {
  const poll = message.pollCreationMessage ?? message.pollCreationMessageV2 ?? message.pollCreationMessageV3 ?? message.pollCreationMessageV5;
  return poll ? { options: (poll.options ?? []).map((o) => text(o.optionName)) } : undefined;
};

/**
 * A poll vote as text the agent reads ("🗳️ Manhã, Tarde"; "🗳️ —" for a vote taken back), decrypted with
 * the poll's secret the way WhatsApp encrypts it (Baileys' decryptPollVote): the key mixes the poll's
 * creator, its id and the voter. Baileys 7 may address either side by phone number or by LID, so each
 * pairing is tried (a wrong one fails GCM's check). Undefined when the poll is not ours to read or the
 * vote does not open.
 */
export const readPollVote = (msg: proto.IWebMessageInfo, poll: proto.IMessage, me: OwnIdentity): string | undefined => {
  const update = normalizeMessageContent(msg.message)?.pollUpdateMessage;
  const secret = poll.messageContextInfo?.messageSecret;
  const pollId = update?.pollCreationMessageKey?.id;
  const asked = pollOf(poll);
  if (!update?.vote?.encPayload || !update.vote.encIv || !secret?.length || !pollId || !asked) return undefined;
  const key = msg.key as WAMessageKey;
  const ownJids = [me.number ? `${me.number}@s.whatsapp.net` : undefined, me.lid ? `${me.lid}@lid` : undefined];
  const voters = key.fromMe ? ownJids : [key.participantAlt, key.remoteJidAlt, key.participant ?? msg.participant, key.remoteJid];
  const creatorKey = update.pollCreationMessageKey as WAMessageKey;
  const creators = creatorKey.fromMe
    ? ownJids
    : [creatorKey.participantAlt, creatorKey.remoteJidAlt, creatorKey.participant, isJidGroup(creatorKey.remoteJid ?? '') ? undefined : creatorKey.remoteJid];
  for (const pollCreatorJid of new Set(creators.filter((j): j is string => !!j))) {
    for (const voterJid of new Set(voters.filter((j): j is string => !!j && !isJidGroup(j)))) {
      let chosen: Uint8Array[];
      try {
        chosen = decryptPollVote(update.vote, { pollCreatorJid, pollMsgId: pollId, pollEncKey: secret, voterJid }).selectedOptions ?? [];
      } catch {
        continue;
      }
      const byHash = new Map(asked.options.map((name) => [createHash('sha256').update(name).digest('hex'), name]));
      const names = chosen.map((hash) => byHash.get(Buffer.from(hash).toString('hex'))).filter((n): n is string => n !== undefined);
      return `🗳️ ${names.join(', ') || '—'}`;
    }
  }
  return undefined;
};
