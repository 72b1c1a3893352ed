import { z } from 'zod';
import { textSchema, idSchema } from './common.js';

const id = idSchema;

/** Keys the chatbot reserves for navigation: "0" goes up a level, "#" back to the main menu. */
export const QUEUE_OPTION_RESERVED_KEYS = ['0', '#'] as const;

/** What the customer types to pick the option; the client sends the 1-based position, as text or number. */
const optionKey = z
  .union([textSchema, z.number().int()])
  .transform((v) => String(v).trim())
  .pipe(
    textSchema
      .min(1)
      .max(10)
      .refine((v) => !(QUEUE_OPTION_RESERVED_KEYS as readonly string[]).includes(v), { message: '0 and # are reserved' }),
  );

/** The option form sends '' or null for "top level". */
const parentId = z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), id.nullable());

const fields = {
  title: textSchema.trim().min(1).max(200),
  message: textSchema.max(4096),
};

/** POST /queue-options (spec 02 sections 3 and 7). Without `option`, the next position among its siblings. */
export const createQueueOptionSchema = z.object({
  queueId: id,
  parentId: parentId.optional().default(null),
  title: fields.title,
  message: fields.message.optional().default(''),
  option: optionKey.optional(),
});
export type CreateQueueOptionInput = z.infer<typeof createQueueOptionSchema>;

/** PUT /queue-options/{id}: only what is sent changes; an option stays in its queue. */
export const updateQueueOptionSchema = z.object({
  queueId: id.optional(),
  parentId: parentId.optional(),
  title: fields.title.optional(),
  message: fields.message.optional(),
  option: optionKey.optional(),
});
export type UpdateQueueOptionInput = z.infer<typeof updateQueueOptionSchema>;

/** GET /queue-options: parentId -1 means the top level; without it, every option of the queue. */
export const listQueueOptionsQuerySchema = z.object({
  queueId: id.optional(),
  parentId: z.coerce
    .number()
    .int()
    .max(2147483647)
    .refine((v) => v === -1 || v > 0, { message: '-1 or an option id' })
    .optional(),
});
export type ListQueueOptionsQuery = z.infer<typeof listQueueOptionsQuerySchema>;

/** An option as the API returns it, with its sub-options. */
export interface QueueOptionView {
  id: number;
  title: string;
  message: string;
  option: string;
  queueId: number;
  parentId: number | null;
  children: QueueOptionView[];
  createdAt: string | Date;
  updatedAt: string | Date;
}
