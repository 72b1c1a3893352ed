import { PAGE_SIZE, type SendMessageInput } from '@atrium/shared';
import type { ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { Contact } from '../contacts/contact.entity.js';
import { canActOnTicket, findActionableTicket, findVisibleTicket, followLastMessage, loadViewer, markTicketRead, placementOf } from '../tickets/index.js';
import { getSettingValue } from '../settings/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { User } from '../users/user.entity.js';
import { Message } from './message.entity.js';
import { presentMessage, presentMessages } from './message.presenter.js';
import { cancelQueued, peerOf, requeueFailed, sendMedia, sendText, type ConversationDeps, type OutboundFile } from '../outbox/index.js';

/**
 * GET /messages/{ticketId}: 20 per page, newest page first, each page oldest to newest. The history
 * spans the contact's earlier tickets on the same connection (the view separates them). Opened by the
 * agent who answers it, it marks the ticket read and sends read receipts for the customer's unread messages.
 */
export const listMessages = async (ctx: ServiceContext, deps: ConversationDeps, ticketId: number, pageNumber: number) => {
  const viewer = await loadViewer(ctx.em, ctx.actor);
  const ticket = await findVisibleTicket(ctx, ticketId, viewer);
  const size = PAGE_SIZE.messages;
  // One page plus one row tells whether there is more, without counting the whole history.
  const offset = (pageNumber - 1) * size;
  // The contact's tickets on this connection, and what was sent to them without a ticket (a campaign's
  // message), each branch ordered and limited on its own.
  const rows = await ctx.em.execute<{ id: number }[]>(
    `select id from (
       (select m.id, m.created_at from messages m join tickets t on t.id = m.ticket_id
         where t.company_id = ? and t.contact_id = ? and t.whatsapp_id is not distinct from ?
         order by m.created_at desc, m.id desc limit ?)
       union all
       (select m.id, m.created_at from messages m
         where m.company_id = ? and m.ticket_id is null and m.chat_contact_id = ? and m.whatsapp_id is not distinct from ?
         order by m.created_at desc, m.id desc limit ?)
     ) x order by created_at desc, id desc limit ? offset ?`,
    [
      requireTenant(ctx.em),
      ticket.contactId,
      ticket.whatsappId,
      offset + size + 1,
      requireTenant(ctx.em),
      ticket.contactId,
      ticket.whatsappId,
      offset + size + 1,
      size + 1,
      offset,
    ],
  );
  const pageIds = rows.slice(0, size).map((r) => r.id);
  // Read for the one who answers it: a colleague's or an admin's look at an agent's conversation leaves the
  // agent's unread count and the customer's blue ticks alone.
  const answersIt = ticket.userId === null ? canActOnTicket(viewer, ticket) : ticket.userId === ctx.actor.userId;
  if (ticket.unreadMessages > 0 && answersIt) await markRead(ctx, deps, ticket);
  return {
    messages: (await presentMessages(ctx.em, deps.media, pageIds)).reverse(),
    ticket: { id: ticket.id },
    hasMore: rows.length > size,
  };
};

/** The customer's unread messages become read, with read receipts to their phone. */
const markRead = async (ctx: ServiceContext, deps: ConversationDeps, ticket: Ticket) => {
  const unread = await ctx.em.find(Message, { ticketId: ticket.id, fromMe: false, read: false }, { fields: ['id', 'wid', 'participant', 'raw'] });
  if (unread.length > 0) {
    await ctx.em.nativeUpdate(Message, { id: { $in: unread.map((m) => m.id) } }, { read: true });
    // The session may run in another server process: it sends the receipts.
    const session = ticket.whatsappId ? await deps.channels.reach({ id: ticket.whatsappId, companyId: ticket.companyId }) : undefined;
    if (session) {
      const contact = await ctx.em.findOneOrFail(Contact, ticket.contactId);
      const receipts = unread.filter((m) => m.wid).map((m) => ({ id: m.wid!, participant: m.participant ?? undefined, raw: m.raw ?? undefined }));
      void session.markRead(peerOf(contact), receipts).catch(() => undefined);
    }
  }
  await markTicketRead(ctx, ticket);
};

const signed = async (ctx: ServiceContext, body: string, sign: boolean | undefined) => {
  if (!sign || !body.trim()) return body;
  const user = await ctx.em.findOneOrFail(User, ctx.actor.userId);
  return `*${user.name}:*\n${body}`;
};

const openTicketFor = async (ctx: ServiceContext, ticketId: number) => {
  const ticket = await findActionableTicket(ctx, ticketId);
  if (ticket.status === 'closed') throw new AppError('ERR_TICKET_CLOSED');
  return ticket;
};

const quotedIn = async (ctx: ServiceContext, ticket: Ticket, quotedMsgId: number | undefined) => {
  if (!quotedMsgId) return null;
  const quoted = await ctx.em.findOne(Message, quotedMsgId);
  // Only a message of this conversation can be quoted.
  if (!quoted) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const sameContact =
    quoted.ticketId === null
      ? quoted.chatContactId === ticket.contactId
      : !!(await ctx.em.findOne(Ticket, { id: quoted.ticketId, contactId: ticket.contactId }));
  if (!sameContact) throw new AppError('ERR_NO_MESSAGE_FOUND');
  return quoted.id;
};

/**
 * With sendTypingPresence on, the customer sees "typing…" (or "recording…" before a voice note) before an
 * agent's reply, for about the time it would take to type it: 40 ms a character, between 0.8 s and 3 s.
 */
const agentPresence = async (ctx: ServiceContext, reply: { text?: string; voiceNote?: boolean }) => {
  if ((await getSettingValue(ctx.em, 'sendTypingPresence')) !== 'enabled') return undefined;
  if (reply.voiceNote) return { kind: 'recording' as const, ms: 1500 };
  if (reply.text === undefined) return undefined;
  return { kind: 'composing' as const, ms: Math.min(3000, Math.max(800, reply.text.length * 40)) };
};

/** POST /messages/{ticketId} with JSON: an agent's text. */
export const sendTextMessage = async (ctx: ServiceContext, deps: ConversationDeps, ticketId: number, input: SendMessageInput) => {
  if (!input.body.trim()) throw new AppError('ERR_MESSAGE_EMPTY');
  const ticket = await openTicketFor(ctx, ticketId);
  const quotedMsgId = await quotedIn(ctx, ticket, input.quotedMsg?.id);
  const body = await signed(ctx, input.body, input.signMessage);
  return sendText(deps, ctx.em, ticket, {
    body,
    userId: ctx.actor.userId,
    quotedMsgId,
    presence: await agentPresence(ctx, { text: body }),
  });
};

/** POST /messages/{ticketId} multipart: files sent one after another, in order, each with its caption. */
export const sendMediaMessages = async (
  ctx: ServiceContext,
  deps: ConversationDeps,
  ticketId: number,
  files: OutboundFile[],
  options: { signMessage?: boolean; quotedMsgId?: number },
) => {
  if (files.length === 0) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'medias', message: 'at least one file' }] });
  const ticket = await openTicketFor(ctx, ticketId);
  const quotedMsgId = await quotedIn(ctx, ticket, options.quotedMsgId);
  const sent = [];
  for (const file of files) {
    sent.push(
      await sendMedia(
        deps,
        ctx.em,
        ticket,
        { ...file, caption: await signed(ctx, file.caption ?? '', options.signMessage) },
        { userId: ctx.actor.userId, quotedMsgId, presence: await agentPresence(ctx, { voiceNote: file.voiceNote }) },
      ),
    );
  }
  return sent;
};

/**
 * A message of a conversation with its ticket: 404 for none (or one sent without a ticket, a campaign's,
 * handled where it was sent from), then the ticket's access rule: `see` to read it, `act` to change it.
 */
const messageOfTicket = async (ctx: ServiceContext, id: number, access: 'see' | 'act') => {
  const message = await ctx.em.findOne(Message, id, { populate: ['raw'] });
  if (!message || message.ticketId === null) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const ticket = access === 'act' ? await findActionableTicket(ctx, message.ticketId) : await findVisibleTicket(ctx, message.ticketId);
  return { message, ticket };
};

/** DELETE /messages/{id}: only our own messages, deleted for everyone on WhatsApp, then marked. */
export const deleteMessage = async (ctx: ServiceContext, deps: ConversationDeps, id: number) => {
  const { message, ticket } = await messageOfTicket(ctx, id, 'act');
  if (!message.fromMe) throw new AppError('ERR_NO_PERMISSION');
  if (message.isDeleted) throw new AppError('ERR_CONFLICT', { reason: 'already deleted' });
  // Still waiting in the outbox (or failed): withdrawn there, nothing reached the phone to delete.
  const withdrawn = message.ack === 0 && (await cancelQueued(deps, ctx.em, message.id));
  if (!withdrawn && message.wid && message.whatsappId) {
    const contact = await ctx.em.findOneOrFail(Contact, ticket.contactId);
    const session = await deps.channels.reach({ id: message.whatsappId, companyId: ticket.companyId });
    if (!session) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    try {
      await session.deleteMessage(peerOf(contact), message.wid, true, message.raw ?? undefined);
    } catch (err) {
      // The channel's verdict (ERR_DELETE_WAPP_MSG, not connected) or our own failure (a 500) as it is.
      if (err instanceof AppError) throw err;
      throw new AppError('ERR_DELETE_WAPP_MSG');
    }
  }
  message.isDeleted = true;
  await ctx.em.flush();
  const presented = await presentMessage(ctx.em, deps.media, message);
  ctx.events.emit('message.updated', { companyId: ticket.companyId, message: presented, placement: placementOf(ticket) });
  // The ticket's preview stops showing the deleted text, as it does for a delete from the phone.
  await followLastMessage(ctx.em, ctx.events, ticket, message);
  return presented;
};

/** POST /messages/{id}/resend: our message that failed to send goes again (same message id, in order). */
export const resendMessage = async (ctx: ServiceContext, deps: ConversationDeps, id: number) => {
  const { message, ticket } = await messageOfTicket(ctx, id, 'act');
  if (!message.fromMe || message.isDeleted) throw new AppError('ERR_NO_PERMISSION');
  // As for any message: nothing is sent on a closed conversation.
  if (ticket.status === 'closed') throw new AppError('ERR_TICKET_CLOSED');
  if (!(await requeueFailed(deps, ctx.em, message))) throw new AppError('ERR_CONFLICT', { reason: 'not a failed send' });
  const presented = await presentMessage(ctx.em, deps.media, message);
  ctx.events.emit('message.updated', { companyId: ticket.companyId, message: presented, placement: placementOf(ticket) });
  return presented;
};

/** The media types a customer's message carries as a file (what a download may bring again). */
const FILE_MEDIA = new Set(['image', 'audio', 'video', 'application', 'document', 'sticker']);

/**
 * POST /messages/{id}/media: a received file whose download failed is fetched again by the connection's
 * running session. The message shows "downloading" at once (pending, announced); the download ends in the
 * usual completion (the file, or failed again). Refused: not connected here (ERR_WAPP_NOT_INITIALIZED), no
 * file to fetch (ERR_NO_MEDIA_TO_FETCH), not failed — on its way, arrived or too large (ERR_MEDIA_NOT_FAILED),
 * a provider that cannot fetch again (ERR_MEDIA_REFETCH_UNSUPPORTED; the message stays failed).
 */
export const refetchMessageMedia = async (ctx: ServiceContext, deps: ConversationDeps, id: number) => {
  const { message, ticket } = await messageOfTicket(ctx, id, 'see');
  if (!FILE_MEDIA.has(message.mediaType) || !message.wid || message.whatsappId === null) throw new AppError('ERR_NO_MEDIA_TO_FETCH');
  if (message.mediaStatus !== 'failed') throw new AppError('ERR_MEDIA_NOT_FAILED');
  const session = await deps.channels.reach({ id: message.whatsappId, companyId: ticket.companyId });
  if (!session || !(await session.canSend())) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  const raw: unknown = message.raw;
  // Pending before the session is asked, so the download's completion finds it waiting; only from failed
  // (two agents clicking at once: the second is told it is on its way).
  if ((await ctx.em.nativeUpdate(Message, { id, mediaStatus: 'failed' }, { mediaStatus: 'pending' })) === 0) throw new AppError('ERR_MEDIA_NOT_FAILED');
  await ctx.em.refresh(message);
  const presented = await presentMessage(ctx.em, deps.media, message);
  try {
    await session.refetchMedia(message.wid, raw);
  } catch (err) {
    // Refused: failed as it was, and the clients were told nothing.
    await ctx.em.nativeUpdate(Message, { id, mediaStatus: 'pending' }, { mediaStatus: 'failed' });
    throw err;
  }
  // Told at once (no I/O since the download was queued): its completion, which needs some, comes after.
  ctx.events.emit('message.updated', { companyId: ticket.companyId, message: presented, placement: placementOf(ticket) });
  return presented;
};
