import { z } from 'zod';
import { textSchema, idSchema } from './common.js';

const id = idSchema;

/** Ticket note: required, at least 2 characters (spec 01 section 5). */
export const createTicketNoteSchema = z.object({
  note: textSchema.trim().min(2).max(10000),
  ticketId: id,
  contactId: id,
});
export type CreateTicketNoteInput = z.infer<typeof createTicketNoteSchema>;

export const listTicketNotesQuerySchema = z.object({
  ticketId: id,
  contactId: id.optional(),
});
export type ListTicketNotesQuery = z.infer<typeof listTicketNotesQuerySchema>;
