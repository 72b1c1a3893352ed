import { z } from 'zod';
import { LANGUAGES } from '../constants.js';
import { PROFILES } from '../permissions.js';
import { emailSchema, nameSchema, passwordSchema, textSchema, idSchema } from './common.js';

export const ALL_TICKET_VALUES = ['enabled', 'desabled'] as const;

const userFields = {
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  profile: z.enum(PROFILES),
  allTicket: z.enum(ALL_TICKET_VALUES),
  // The original user form sends '' (or false) for "no connection".
  whatsappId: z.preprocess(
    (v) => (v === '' || v === false ? null : v),
    z
      .union([z.number(), textSchema.trim().regex(/^\d+$/).transform(Number)])
      .pipe(z.number().int().positive().max(2147483647))
      .nullable(),
  ),
  queueIds: z.array(idSchema).max(500),
  super: z.boolean(),
  companyId: idSchema,
};

export const createUserSchema = z.object({
  ...userFields,
  profile: userFields.profile.default('user'),
  allTicket: userFields.allTicket.default('desabled'),
  whatsappId: userFields.whatsappId.optional(),
  queueIds: userFields.queueIds.default([]),
  super: userFields.super.optional(),
  companyId: userFields.companyId.optional(),
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

export const updateUserSchema = z.object({
  name: userFields.name.optional(),
  email: userFields.email.optional(),
  // The user form sends an empty password when it is left unchanged.
  password: z.union([z.literal(''), passwordSchema]).optional(),
  profile: userFields.profile.optional(),
  allTicket: userFields.allTicket.optional(),
  whatsappId: userFields.whatsappId.optional(),
  queueIds: userFields.queueIds.optional(),
  super: userFields.super.optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

export const languageParamSchema = z.object({ lang: z.enum(LANGUAGES) });
