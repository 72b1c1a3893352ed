import { z } from 'zod';
import { idListSchema, idSchema, queryFlagSchema } from './common.js';

/** Cards per lane and page on the kanban board. */
export const KANBAN_PAGE_SIZE = 20;

/** The lane of tickets without a kanban tag, where a lane is named in a query. */
export const KANBAN_NO_TAG_LANE = 'none';

/**
 * GET /ticket/kanban (spec 02 section 7): queueIds as JSON (or a comma list), showAll (admins only).
 * Without `lane`: the first page of every lane and each lane's count; with `lane` (a kanban tag id or
 * "none"): that lane's page `pageNumber`.
 */
export const kanbanBoardQuerySchema = z.object({
  queueIds: idListSchema.optional(),
  showAll: queryFlagSchema.optional().default(false),
  lane: z.union([z.literal(KANBAN_NO_TAG_LANE), idSchema]).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type KanbanBoardQuery = z.infer<typeof kanbanBoardQuerySchema>;

/** PUT /ticket-tags/{ticketId}/{tagId}. */
export const ticketTagParamsSchema = z.object({ ticketId: idSchema, tagId: idSchema });
/** DELETE /ticket-tags/{ticketId} and PUT /ticket/{ticketId}/kanban. */
export const ticketIdParamsSchema = z.object({ ticketId: idSchema });

/** PUT /ticket/{ticketId}/kanban: the card's lane becomes this kanban tag (null: the lane without one), in one step. */
export const moveKanbanCardSchema = z.object({ tagId: idSchema.nullable() });
export type MoveKanbanCardInput = z.infer<typeof moveKanbanCardSchema>;

/** PUT /tags/kanban/order: the kanban lanes in the order the admin dragged them to. */
export const reorderKanbanLanesSchema = z.object({
  tagIds: z
    .array(idSchema)
    .max(500)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'duplicate tag' }),
});
export type ReorderKanbanLanesInput = z.infer<typeof reorderKanbanLanesSchema>;
