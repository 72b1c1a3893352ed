import { z } from 'zod';

/**
 * The primitives every schema builds on (lint keeps `z.string()`, `z.date()` and `z.coerce.date()` out of
 * the other schema files): PostgreSQL's text cannot hold U+0000, its integer is 4 bytes, and its
 * timestamps and JavaScript's dates disagree outside years 1-9999.
 */
export const textSchema = z.string().refine((v) => !v.includes('\0'), { message: 'contains a NUL character' });

/** PostgreSQL's `integer`. */
export const INT4_MAX = 2147483647;
/** A row id: a positive integer PostgreSQL's `integer` can hold (a query string or JSON number). */
export const idSchema = z.coerce.number().int().positive().max(INT4_MAX);

const inYearRange = (d: Date) => {
  const year = d.getUTCFullYear();
  return !Number.isNaN(d.getTime()) && year >= 1 && year <= 9999;
};
/** A calendar day, yyyy-mm-dd, that exists (no 2024-02-30, no 2024-13-45, no year 0000). */
export const calendarDaySchema = textSchema.regex(/^\d{4}-\d{2}-\d{2}$/).refine(
  (v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return inYearRange(d) && d.toISOString().slice(0, 10) === v;
  },
  { message: 'not a calendar day' },
);
/**
 * An instant: an ISO string (with offset) or a Date, in years 1-9999; an unreadable value is invalid,
 * never "now". A string's date part must be a real calendar day (JavaScript would roll 02-30 over).
 */
export const instantSchema = z
  .union([
    textSchema.min(1).max(64).refine((v) => {
      const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
      if (!day) return true;
      const d = new Date(`${day[0]}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day[0];
    }, { message: 'not a calendar day' }),
    z.date(),
  ])
  .pipe(z.coerce.date())
  .refine(inYearRange, { message: 'date out of range' });

export const emailSchema = z.email().trim().toLowerCase().max(254);
export const nameSchema = textSchema.trim().min(2).max(50);
/**
 * Every password that is set (signup, a user created or edited, the profile, a reset): at least 8
 * characters with a digit, a lowercase and an uppercase letter (the reset's rule, spec 02 section 9, now
 * for all). The server also refuses the most used passwords (ERR_PASSWORD_TOO_COMMON). Logging in checks
 * no rule: a password set before still works.
 */
export const PASSWORD_RULE_MIN = 8;
/** The messages of the rule's refusals: a form shows any of them as the one rule, in the user's language. */
export const PASSWORD_RULE_MESSAGES = ['at least 8 characters', 'needs a digit', 'needs a lowercase letter', 'needs an uppercase letter'] as const;
export const passwordSchema = textSchema
  .min(PASSWORD_RULE_MIN, { message: PASSWORD_RULE_MESSAGES[0] })
  .max(50)
  .refine((v) => /\d/.test(v), { message: PASSWORD_RULE_MESSAGES[1] })
  .refine((v) => /\p{Ll}/u.test(v), { message: PASSWORD_RULE_MESSAGES[2] })
  .refine((v) => /\p{Lu}/u.test(v), { message: PASSWORD_RULE_MESSAGES[3] });
/** HH:MM, or empty for "no hours set" (a day without times counts as open). */
export const timeOfDaySchema = z.union([z.literal(''), textSchema.regex(/^([01]\d|2[0-3]):[0-5]\d$/)]);
/** Digits only; the mask (99) 99999-9999 is the client's business. */
export const phoneSchema = textSchema
  .trim()
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().max(11));
export const dateInputSchema = instantSchema;
export const booleanLikeSchema = z.union([
  z.boolean(),
  z.enum(['true', 'false', 't', 'f']).transform((v) => v === 'true' || v === 't'),
]);

/** A list of ids in a query: a JSON array, a comma list or repeated keys (at most 500). */
export const idListSchema = z
  .union([z.array(z.union([z.number(), textSchema])), textSchema])
  .transform((v) => {
    if (Array.isArray(v)) return v;
    const text = v.trim();
    if (text.startsWith('[')) {
      try {
        return JSON.parse(text) as unknown[];
      } catch {
        return [text];
      }
    }
    return text === '' ? [] : text.split(',');
  })
  .pipe(z.array(idSchema).max(500));
/** A query's true/false. */
export const queryFlagSchema = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');
