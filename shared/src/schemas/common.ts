import { z } from 'zod';

export const emailSchema = z.email().trim().toLowerCase().max(254);
export const nameSchema = z.string().trim().min(2).max(50);
export const passwordSchema = z.string().min(5).max(50);
/** HH:MM, or empty for "no hours set" (a day without times counts as open). */
export const timeOfDaySchema = z.union([z.literal(''), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/)]);
/** Digits only; the mask (99) 99999-9999 is the client's business. */
export const phoneSchema = z
  .string()
  .trim()
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().max(11));
export const dateInputSchema = z.union([z.string(), z.date()]).pipe(z.coerce.date());
export const booleanLikeSchema = z.union([
  z.boolean(),
  z.enum(['true', 'false', 't', 'f']).transform((v) => v === 'true' || v === 't'),
]);
