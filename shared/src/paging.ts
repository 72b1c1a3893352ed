import { z } from 'zod';
import { textSchema, idSchema } from './schemas/common.js';

/** Shared list query: `searchParam` and a 1-based `pageNumber`. */
export const listQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const idParamSchema = z.object({ id: idSchema });
