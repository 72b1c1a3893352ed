import { z } from 'zod';

const id = z.coerce.number().int().positive().max(2147483647);

/** Ticket note: required, at least 2 characters (spec 01 section 5). */
export const createTicketNoteSchema = z.object({
  note: z.string().trim().min(2).max(10000),
  ticketId: id,
  contactId: id,
});
export type CreateTicketNoteInput = z.infer<typeof createTicketNoteSchema>;

export const listTicketNotesQuerySchema = z.object({
  ticketId: id,
  contactId: id.optional(),
});
export type ListTicketNotesQuery = z.infer<typeof listTicketNotesQuerySchema>;
