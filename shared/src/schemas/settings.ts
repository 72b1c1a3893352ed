import { z } from 'zod';
import { textSchema } from './common.js';

export const updateSettingSchema = z.object({
  key: textSchema.max(100).optional(),
  value: z.union([textSchema.max(500), z.boolean(), z.number()]).transform((v) => String(v)),
});
export type UpdateSettingInput = z.infer<typeof updateSettingSchema>;
