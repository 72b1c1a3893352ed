import { z } from 'zod';
import { textSchema } from './common.js';

const title = textSchema.trim().min(1).max(200);
const description = textSchema.max(5000);
// A YouTube video code (or URL): the client builds the embed link.
const video = textSchema.trim().max(300);

export const createHelpSchema = z.object({
  title,
  description: description.optional().default(''),
  video: video.optional().default(''),
});
export type CreateHelpInput = z.infer<typeof createHelpSchema>;

/** Only the fields sent change: no defaults here (zod applies a default even inside .partial()). */
export const updateHelpSchema = z.object({
  title: title.optional(),
  description: description.optional(),
  video: video.optional(),
});
export type UpdateHelpInput = z.infer<typeof updateHelpSchema>;
