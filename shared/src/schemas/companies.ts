import { z } from 'zod';
import { RECURRENCES, WEEKDAYS } from '../constants.js';
import { booleanLikeSchema, dateInputSchema, emailSchema, nameSchema, passwordSchema, phoneSchema, timeOfDaySchema, textSchema } from './common.js';

/** A row id in a body: a number or a numeric string, never `true` coerced to 1. */
const bodyIdSchema = z
  .union([z.number(), textSchema.trim().regex(/^\d+$/).transform(Number)])
  .pipe(z.number().int().positive().max(2147483647));

/**
 * Public signup (POST /companies/cadastro). recurrence, status, dueDate and campaignsEnabled are
 * accepted for the contract but the server sets them itself (spec 03 section 11).
 */
export const signupSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  phone: phoneSchema.optional(),
  planId: bodyIdSchema,
  recurrence: z.unknown().optional(),
  dueDate: z.unknown().optional(),
  status: z.unknown().optional(),
  campaignsEnabled: z.unknown().optional(),
});
export type SignupInput = z.infer<typeof signupSchema>;

export const recurrenceSchema = z.enum(RECURRENCES as [string, ...string[]]);

const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
/** An IANA time zone: an unknown one would break every date computed for the company. */
export const timeZoneSchema = textSchema.trim().max(64).refine(isTimeZone, { message: 'unknown time zone' });

/** Super user: create a company, optionally with its first admin (email + password). */
export const createCompanySchema = z.object({
  name: nameSchema,
  email: emailSchema.optional().or(z.literal('')),
  phone: phoneSchema.optional(),
  password: passwordSchema.optional(),
  planId: bodyIdSchema,
  status: booleanLikeSchema.optional().default(true),
  dueDate: dateInputSchema.optional(),
  recurrence: recurrenceSchema.optional().default('MENSAL'),
  campaignsEnabled: booleanLikeSchema.optional(),
  timezone: timeZoneSchema.optional(),
});
export type CreateCompanyInput = z.infer<typeof createCompanySchema>;

export const updateCompanySchema = z.object({
  name: nameSchema.optional(),
  email: emailSchema.optional().or(z.literal('')),
  phone: phoneSchema.optional(),
  planId: bodyIdSchema.optional(),
  status: booleanLikeSchema.optional(),
  dueDate: dateInputSchema.optional(),
  recurrence: recurrenceSchema.optional(),
  campaignsEnabled: booleanLikeSchema.optional(),
  timezone: timeZoneSchema.optional(),
  billingName: textSchema.max(100).optional(),
});
export type UpdateCompanyInput = z.infer<typeof updateCompanySchema>;

const weekdayEnValues = WEEKDAYS.map((d) => d.weekdayEn) as [string, ...string[]];

export const companyScheduleSchema = z.object({
  weekday: textSchema.max(30).optional(),
  weekdayEn: z.enum(weekdayEnValues),
  startTime: timeOfDaySchema.default(''),
  endTime: timeOfDaySchema.default(''),
});

export const updateCompanySchedulesSchema = z.object({
  schedules: z
    .array(companyScheduleSchema)
    .max(7)
    .refine((list) => new Set(list.map((s) => s.weekdayEn)).size === list.length, {
      message: 'each weekday at most once',
    }),
});
export type UpdateCompanySchedulesInput = z.infer<typeof updateCompanySchedulesSchema>;
