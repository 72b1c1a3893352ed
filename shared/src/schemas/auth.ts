import { z } from 'zod';
import { emailSchema, textSchema } from './common.js';

export const loginSchema = z.object({
  email: emailSchema,
  password: textSchema.min(1).max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The desktop app sends its refresh token in the body; the web sends the `jrt` cookie. */
export const refreshSchema = z.object({
  refreshToken: textSchema.max(500).optional(),
});
export type RefreshInput = z.infer<typeof refreshSchema>;
