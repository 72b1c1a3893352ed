import type { EntityManager } from '@mikro-orm/postgresql';
import type { CreateTicketNoteInput, ListTicketNotesQuery } from '@atrium/shared';
import { isAdmin, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { findVisibleTicket } from '../tickets/index.js';
import { User } from '../users/user.entity.js';
import { TicketNote } from './ticket-note.entity.js';

const presentNotes = async (em: EntityManager, notes: TicketNote[]) => {
  const userIds = [...new Set(notes.map((n) => n.userId).filter((id): id is number => id !== null))];
  const users = userIds.length > 0 ? await em.find(User, { id: { $in: userIds } }, { fields: ['id', 'name'] }) : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return notes.map((n) => {
    const user = n.userId !== null ? byId.get(n.userId) : undefined;
    return {
      id: n.id,
      note: n.note,
      ticketId: n.ticketId,
      contactId: n.contactId,
      userId: n.userId,
      user: user ? { id: user.id, name: user.name } : null,
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
    };
  });
};

const notTheTicketsContact = () =>
  new AppError('ERR_VALIDATION', { fields: [{ path: 'contactId', message: "not the ticket's contact" }] });

/** POST /ticket-notes: a note on a ticket the caller may see, about that ticket's contact. */
export const createTicketNote = async (ctx: ServiceContext, input: CreateTicketNoteInput) => {
  const ticket = await findVisibleTicket(ctx, input.ticketId);
  if (ticket.contactId !== input.contactId) throw notTheTicketsContact();
  const note = ctx.em.create(TicketNote, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    userId: ctx.actor.userId,
    note: input.note,
  });
  await ctx.em.flush();
  return (await presentNotes(ctx.em, [note]))[0];
};

/** GET /ticket-notes/list: the notes of a ticket the caller may see, newest first. */
export const listTicketNotes = async (ctx: ServiceContext, query: ListTicketNotesQuery) => {
  const ticket = await findVisibleTicket(ctx, query.ticketId);
  if (query.contactId !== undefined && query.contactId !== ticket.contactId) throw notTheTicketsContact();
  const notes = await ctx.em.find(TicketNote, { ticketId: ticket.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  return presentNotes(ctx.em, notes);
};

/** DELETE /ticket-notes/{id}: its author or an admin. */
export const deleteTicketNote = async (ctx: ServiceContext, id: number) => {
  const note = await ctx.em.findOne(TicketNote, id);
  if (!note) throw new AppError('ERR_NO_TICKET_NOTE_FOUND');
  const admin = isAdmin(ctx.actor);
  if (!admin && note.userId !== ctx.actor.userId) throw new AppError('ERR_NO_PERMISSION');
  await ctx.em.remove(note).flush();
};
