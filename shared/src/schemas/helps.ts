import { z } from 'zod';

export const createHelpSchema = z.object({
  title: z.string().trim().min(1).max(200),
  description: z.string().max(5000).optional().default(''),
  // A YouTube video code (or URL): the client builds the embed link.
  video: z.string().trim().max(300).optional().default(''),
});
export type CreateHelpInput = z.infer<typeof createHelpSchema>;

export const updateHelpSchema = createHelpSchema.partial();
export type UpdateHelpInput = z.infer<typeof updateHelpSchema>;
