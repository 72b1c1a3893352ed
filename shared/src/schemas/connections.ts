import { z } from 'zod';
import { textSchema, idSchema } from './common.js';

const text = textSchema.max(4096);
const minutes = z.coerce.number().int().min(0).max(525600);
const id = idSchema;

const fields = {
  name: textSchema.trim().min(2).max(50),
  isDefault: z.boolean(),
  provider: textSchema.trim().min(1).max(20),
  greetingMessage: text,
  complationMessage: text,
  outOfHoursMessage: text,
  ratingMessage: text,
  expiresInactiveMessage: text,
  expiresTicket: minutes,
  timeUseBotQueues: minutes,
  maxUseBotQueues: z.coerce.number().int().min(0).max(50),
  transferQueueId: id.nullable(),
  timeToTransfer: minutes,
  queueIds: z.array(id).max(200),
  integrationId: id.nullable(),
  promptId: id.nullable(),
  flowIdWelcome: id.nullable(),
  flowIdNotPhrase: id.nullable(),
};

/** POST /whatsapp (spec 01 section 3 fields; name 2-50 as section 5 says). */
/** POST /whatsappsession/{id}/pairing-code: the phone to link, with country code. */
export const pairingCodeSchema = z.object({
  number: textSchema.trim().transform((v) => v.replace(/\D/g, '')).pipe(textSchema.min(8).max(15)),
});
export type PairingCodeInput = z.infer<typeof pairingCodeSchema>;

export const createConnectionSchema = z.object({
  name: fields.name,
  isDefault: fields.isDefault.optional().default(false),
  provider: fields.provider.optional().default('beta'),
  greetingMessage: fields.greetingMessage.optional().default(''),
  complationMessage: fields.complationMessage.optional().default(''),
  outOfHoursMessage: fields.outOfHoursMessage.optional().default(''),
  ratingMessage: fields.ratingMessage.optional().default(''),
  expiresInactiveMessage: fields.expiresInactiveMessage.optional().default(''),
  expiresTicket: fields.expiresTicket.optional().default(0),
  timeUseBotQueues: fields.timeUseBotQueues.optional().default(0),
  maxUseBotQueues: fields.maxUseBotQueues.optional().default(3),
  transferQueueId: fields.transferQueueId.optional().default(null),
  timeToTransfer: fields.timeToTransfer.optional().default(0),
  queueIds: fields.queueIds.optional().default([]),
  integrationId: fields.integrationId.optional().default(null),
  promptId: fields.promptId.optional().default(null),
  flowIdWelcome: fields.flowIdWelcome.optional().default(null),
  flowIdNotPhrase: fields.flowIdNotPhrase.optional().default(null),
});
export type CreateConnectionInput = z.infer<typeof createConnectionSchema>;

/** PUT /whatsapp/{id}: only what is sent changes. */
export const updateConnectionSchema = z.object({
  name: fields.name.optional(),
  isDefault: fields.isDefault.optional(),
  greetingMessage: fields.greetingMessage.optional(),
  complationMessage: fields.complationMessage.optional(),
  outOfHoursMessage: fields.outOfHoursMessage.optional(),
  ratingMessage: fields.ratingMessage.optional(),
  expiresInactiveMessage: fields.expiresInactiveMessage.optional(),
  expiresTicket: fields.expiresTicket.optional(),
  timeUseBotQueues: fields.timeUseBotQueues.optional(),
  maxUseBotQueues: fields.maxUseBotQueues.optional(),
  transferQueueId: fields.transferQueueId.optional(),
  timeToTransfer: fields.timeToTransfer.optional(),
  queueIds: fields.queueIds.optional(),
  integrationId: fields.integrationId.optional(),
  promptId: fields.promptId.optional(),
  flowIdWelcome: fields.flowIdWelcome.optional(),
  flowIdNotPhrase: fields.flowIdNotPhrase.optional(),
  /** Issue a new API token (answered once in `token`). */
  regenerateToken: z.boolean().optional(),
});
export type UpdateConnectionInput = z.infer<typeof updateConnectionSchema>;

/**
 * With more than one queue the customer is first greeted with the queue menu, so the greeting is then
 * required (spec 01 section 5). The server holds the same rule in its connection service, where it also
 * knows the stored queues and greeting of a connection that an update leaves out, and answers the
 * contract's ERR_WAPP_GREETING_REQUIRED (so the request schemas above do not refuse it as ERR_VALIDATION).
 */
export const greetingRequired = (queueIds: readonly number[], greetingMessage: string | null | undefined): boolean =>
  new Set(queueIds).size > 1 && !(greetingMessage ?? '').trim();

const greetingFields = z.object({ queueIds: fields.queueIds, greetingMessage: fields.greetingMessage.optional() });
const greetingRule = {
  path: ['greetingMessage'],
  message: 'required with more than one queue',
  // Judged whenever the queues and greeting are readable, so its message shows with the other fields'.
  when: (payload: { value: unknown }) => greetingFields.safeParse(payload.value).success,
};
const greetingGiven = (v: { queueIds?: number[]; greetingMessage?: string }) => !greetingRequired(v.queueIds ?? [], v.greetingMessage);

/** The connection dialog's schemas: the request schemas and the greeting rule, on the greetingMessage field. */
export const createConnectionFormSchema = createConnectionSchema.refine(greetingGiven, greetingRule);
export const updateConnectionFormSchema = updateConnectionSchema.refine(greetingGiven, greetingRule);

export const listConnectionsQuerySchema = z.object({
  session: z.coerce.number().int().optional(),
  companyId: id.optional(),
});

/** The sandbox phone's endpoints. */
export const sandboxInboundSchema = z.object({
  from: textSchema.trim().transform((v) => v.replace(/\D/g, '')).pipe(textSchema.min(8).max(15)),
  name: textSchema.trim().max(100).optional(),
  body: textSchema.max(65536).optional(),
  id: textSchema.trim().min(1).max(100).regex(/^[A-Za-z0-9_.:-]+$/).optional(),
  quotedId: textSchema.trim().max(200).optional(),
  /** The customer tapped a button or a list row the platform sent: its id (flows and Typebot menus read it). */
  replyId: textSchema.trim().min(1).max(200).optional(),
  media: z
    .object({
      mimetype: textSchema.regex(/^[\w.+-]+\/[\w.+-]+$/),
      filename: textSchema.max(200).optional(),
      base64: textSchema.min(1),
    })
    .optional(),
});
export type SandboxInboundInput = z.infer<typeof sandboxInboundSchema>;

export const sandboxAckSchema = z.object({
  id: textSchema.trim().min(1).max(200),
  ack: z.coerce.number().int().min(0).max(5),
});
