import { z } from 'zod';
import { nameSchema, textSchema, idSchema, calendarDaySchema } from './common.js';

const id = idSchema;
const day = calendarDaySchema;

/** A contact number: digits only (a mask, spaces or a leading + are dropped), 8 to 50 of them (spec 01 section 5). */
export const contactNumberSchema = z
  .union([textSchema, z.number()])
  .transform((v) => (typeof v === 'number' ? (Number.isInteger(v) ? v.toFixed(0) : String(v)) : v).replace(/\D/g, ''))
  .pipe(textSchema.min(8).max(50));

/** A valid email, or empty for none. */
export const contactEmailSchema = textSchema
  .trim()
  .pipe(z.union([z.literal(''), z.email().max(254).toLowerCase()]));

export const contactExtraInfoSchema = z.object({
  id: id.optional(),
  name: textSchema.trim().min(1).max(100),
  value: textSchema.max(5000),
});
export type ContactExtraInfoInput = z.infer<typeof contactExtraInfoSchema>;

const extraInfo = z.array(contactExtraInfoSchema).max(100);

export const createContactSchema = z.object({
  name: nameSchema,
  number: contactNumberSchema,
  email: contactEmailSchema.optional().default(''),
  extraInfo: extraInfo.optional().default([]),
});
export type CreateContactInput = z.infer<typeof createContactSchema>;

/** Only the fields sent change; extraInfo, when sent, is the whole list (missing items are deleted). */
export const updateContactSchema = z.object({
  name: nameSchema.optional(),
  number: contactNumberSchema.optional(),
  email: contactEmailSchema.optional(),
  extraInfo: extraInfo.optional(),
});
export type UpdateContactInput = z.infer<typeof updateContactSchema>;

/** GET /contacts: `date` is one day, `dateStart`/`dateEnd` a range (either end optional), in the company's time zone. */
export const listContactsQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  date: day.optional(),
  dateStart: day.optional(),
  dateEnd: day.optional(),
});
export type ListContactsQuery = z.infer<typeof listContactsQuerySchema>;

export const listAllContactsQuerySchema = z.object({ companyId: id.optional() });

/** Most rows one import may carry (POST /contacts/upload and /contacts/import). */
export const CONTACT_IMPORT_MAX_ROWS = 10000;
/** Largest .xlsx accepted by POST /contacts/import. */
export const CONTACT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** POST /contacts/upload: the first sheet's rows as the client read them (header name to cell value). */
export const contactUploadSchema = z
  .array(z.record(textSchema.max(200), z.unknown()))
  .max(CONTACT_IMPORT_MAX_ROWS);
export type ContactUploadInput = z.infer<typeof contactUploadSchema>;

/** One imported row, whatever the column names were: the same rules as the contact form. */
export const contactImportRowSchema = z.object({
  name: nameSchema,
  number: contactNumberSchema,
  email: contactEmailSchema.optional().default(''),
});
export type ContactImportRow = z.infer<typeof contactImportRowSchema>;

/** Column names an import recognises (compared lower-case, without accents), per field. */
export const CONTACT_IMPORT_COLUMNS = {
  name: ['nome', 'name'],
  number: ['telefone', 'phone', 'number', 'numero', 'whatsapp', 'celular'],
  email: ['email', 'e-mail'],
} as const;
