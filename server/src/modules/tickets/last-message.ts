import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../../events/bus.js';
import { previewOf } from '../messages/index.js';
import { Ticket } from './ticket.entity.js';
import { presentTicket } from './ticket.presenter.js';
import { Message } from '../messages/message.entity.js';

/**
 * A message of the ticket was edited or deleted after it was stored: when it is the ticket's latest, the
 * ticket's preview (lastMessage) follows it and the lists hear the ticket again, so a reload shows what the
 * conversation shows. The ticket keeps its place (updatedAt): an edit or a delete is not new activity.
 * Returns whether the preview changed.
 */
export const followLastMessage = async (em: EntityManager, events: EventBus, ticket: Ticket, message: Message): Promise<boolean> => {
  if (message.ticketId !== ticket.id) return false;
  const newest = { orderBy: { createdAt: 'desc', id: 'desc' } } as const;
  const latest = await em.findOne(Message, { ticketId: ticket.id }, { ...newest, fields: ['id'] });
  if (latest?.id !== message.id) return false;
  // A reaction taken back is not shown at all: the list shows the message before it.
  const shown =
    message.mediaType === 'reactionMessage' && message.isDeleted
      ? await em.findOne(Message, { ticketId: ticket.id, $or: [{ mediaType: { $ne: 'reactionMessage' } }, { isDeleted: false }] }, newest)
      : message;
  const preview = shown ? previewOf(shown) : '';
  if (ticket.lastMessage === preview) return false;
  await em.nativeUpdate(Ticket, { id: ticket.id }, { lastMessage: preview, updatedAt: ticket.updatedAt });
  await em.refresh(ticket);
  events.emit('ticket.changed', { companyId: ticket.companyId, ticket: await presentTicket(em, ticket) });
  return true;
};
