import { z } from 'zod';
import { textSchema } from './common.js';
import { PLAN_FEATURES } from '../plans.js';

/** A number, or a numeric string from a form field; never a boolean, null or array coerced to 0 or 1. */
const numeric = z.union([z.number(), textSchema.trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);
const count = numeric.pipe(z.number().int().min(0).max(100000));
// numeric(12,2): round here so the answer shows what the database keeps.
const money = numeric.pipe(z.number().min(0).max(1_000_000)).transform((v) => Math.round(v * 100) / 100);
const featureFlags = Object.fromEntries(PLAN_FEATURES.map((f) => [f, z.boolean().optional()])) as Record<
  (typeof PLAN_FEATURES)[number],
  z.ZodOptional<z.ZodBoolean>
>;

const planName = textSchema.trim().min(1).max(100);

export const createPlanSchema = z.object({
  name: planName,
  users: count.default(0),
  connections: count.default(0),
  queues: count.default(0),
  value: money.default(0),
  ...featureFlags,
});
export type CreatePlanInput = z.infer<typeof createPlanSchema>;

/** Only the fields sent change: no defaults here (zod applies a default even inside .partial()). */
export const updatePlanSchema = z.object({
  name: planName.optional(),
  users: count.optional(),
  connections: count.optional(),
  queues: count.optional(),
  value: money.optional(),
  ...featureFlags,
});
export type UpdatePlanInput = z.infer<typeof updatePlanSchema>;
