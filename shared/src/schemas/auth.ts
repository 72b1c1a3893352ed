import { z } from 'zod';
import { emailSchema, passwordSchema, textSchema } from './common.js';

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

/** The reset's new password: the one rule for every password set (common.ts). */
export const strongPasswordSchema = passwordSchema;

/** The emailed reset code: 6 digits, valid for 15 minutes, once. */
export const RESET_CODE_LENGTH = 6;
export const RESET_CODE_TTL_SECONDS = 15 * 60;
export const resetCodeSchema = textSchema.trim().regex(/^\d{6}$/, { message: 'a 6-digit code' });

/** POST /forgetpassword/{email}. */
export const forgotPasswordParamsSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordParamsSchema>;

/** POST /resetpasswords (JSON body), and the contract's POST /resetpasswords/{email}/{token}/{newPassword}. */
export const resetPasswordSchema = z.object({
  email: emailSchema,
  token: resetCodeSchema,
  newPassword: strongPasswordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The reset form (spec 02 section 5): the confirmation must equal the new password. */
export const resetPasswordFormSchema = resetPasswordSchema
  .extend({ confirmPassword: textSchema })
  .refine((v) => v.confirmPassword === v.newPassword, { path: ['confirmPassword'], message: 'passwords differ' });
