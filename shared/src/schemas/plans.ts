import { z } from 'zod';
import { PLAN_FEATURES } from '../plans.js';

const count = z.coerce.number().int().min(0).max(100000);
const featureFlags = Object.fromEntries(PLAN_FEATURES.map((f) => [f, z.boolean().optional()])) as Record<
  (typeof PLAN_FEATURES)[number],
  z.ZodOptional<z.ZodBoolean>
>;

export const createPlanSchema = z.object({
  name: z.string().trim().min(1).max(100),
  users: count.default(0),
  connections: count.default(0),
  queues: count.default(0),
  value: z.coerce.number().min(0).max(1_000_000).default(0),
  ...featureFlags,
});
export type CreatePlanInput = z.infer<typeof createPlanSchema>;

export const updatePlanSchema = createPlanSchema.partial();
export type UpdatePlanInput = z.infer<typeof updatePlanSchema>;
