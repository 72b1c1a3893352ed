import { z } from 'zod';

export const updateSettingSchema = z.object({
  key: z.string().max(100).optional(),
  value: z.union([z.string().max(500), z.boolean(), z.number()]).transform((v) => String(v)),
});
export type UpdateSettingInput = z.infer<typeof updateSettingSchema>;
