import { z } from 'zod';
import { textSchema, idSchema } from './common.js';

const id = idSchema;

export const TAG_DEFAULT_COLOR = '#A4CCCC';
export const TAGS_PAGE_SIZE = 20;

/** Tag name: required, at least 3 characters (spec 02 section 5). */
export const tagNameSchema = textSchema.trim().min(3).max(100);
/** A hex colour (#RGB, #RGBA, #RRGGBB or #RRGGBBAA), as the colour picker sends it. */
export const tagColorSchema = textSchema
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/);
/** 1 makes the tag a kanban lane; the form may send a boolean. */
export const tagKanbanSchema = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1'])])
  .transform((v) => (v === true || v === 1 || v === '1' ? 1 : 0));

export const createTagSchema = z.object({
  name: tagNameSchema,
  color: tagColorSchema.optional().default(TAG_DEFAULT_COLOR),
  kanban: tagKanbanSchema.optional().default(0),
});
export type CreateTagInput = z.infer<typeof createTagSchema>;

/** Only the fields sent change. `userId` is accepted for the client's sake and ignored: a tag keeps its creator. */
export const updateTagSchema = z.object({
  name: tagNameSchema.optional(),
  color: tagColorSchema.optional(),
  kanban: tagKanbanSchema.optional(),
  userId: id.nullable().optional(),
});
export type UpdateTagInput = z.infer<typeof updateTagSchema>;

export const listAllTagsQuerySchema = z.object({ companyId: id.optional() });

/** POST /tags/sync: the ticket's tags become exactly these; a tag named but unknown is created. */
export const syncTagsSchema = z.object({
  ticketId: id,
  tags: z
    .array(
      z.union([
        z.object({ id }).passthrough(),
        z.object({ name: tagNameSchema, color: tagColorSchema.optional() }),
      ]),
    )
    .max(100),
});
export type SyncTagsInput = z.infer<typeof syncTagsSchema>;
