import { z } from 'zod';
import { textSchema, idSchema, calendarDaySchema, idListSchema, queryFlagSchema } from './common.js';

const id = idSchema;
const idList = idListSchema;
const flag = queryFlagSchema;
const day = calendarDaySchema;

export const TICKET_STATUS_VALUES = ['open', 'pending', 'closed'] as const;

/** GET /tickets (spec 01 section 7). Arrays may come as JSON, comma lists or repeated keys. */
export const listTicketsQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  status: z.enum(TICKET_STATUS_VALUES).optional(),
  showAll: flag.optional().default(false),
  withUnreadMessages: flag.optional().default(false),
  queueIds: idList.optional(),
  tags: idList.optional(),
  users: idList.optional(),
  date: day.optional(),
  updatedAt: day.optional(),
});
export type ListTicketsQuery = z.infer<typeof listTicketsQuerySchema>;

export const createTicketSchema = z.object({
  contactId: id,
  queueId: id.nullable().optional(),
  whatsappId: id.nullable().optional(),
  userId: id.nullable().optional(),
  status: z.enum(TICKET_STATUS_VALUES).optional(),
});
export type CreateTicketInput = z.infer<typeof createTicketSchema>;

export const updateTicketSchema = z.object({
  status: z.enum(TICKET_STATUS_VALUES).optional(),
  userId: id.nullable().optional(),
  queueId: id.nullable().optional(),
  whatsappId: id.nullable().optional(),
  useIntegration: z.boolean().optional(),
  promptId: id.nullable().optional(),
  integrationId: id.nullable().optional(),
  chatbot: z.boolean().optional(),
});
export type UpdateTicketInput = z.infer<typeof updateTicketSchema>;

export const sendMessageSchema = z.object({
  body: textSchema.max(65536).default(''),
  read: z.boolean().optional(),
  fromMe: z.boolean().optional(),
  mediaUrl: textSchema.max(2000).optional(),
  quotedMsg: z.object({ id: idSchema }).passthrough().nullable().optional(),
  /** Prefix the agent's name (the client's sign-message switch). */
  signMessage: z.boolean().optional(),
});
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

export const listMessagesQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
