import { z } from 'zod';
import { idSchema, nameSchema, textSchema } from './common.js';
import { contactEmailSchema, contactNumberSchema } from './contacts.js';

/** Contact lists and their items (spec 02 sections 2-5 and 7, spec 04 section 3). */
export const CONTACT_LISTS_PAGE_SIZE = 20;
export const CONTACT_LIST_ITEMS_PAGE_SIZE = 20;

/** Contact list: name required, 2 to 50 (spec 02 section 5). */
export const contactListNameSchema = nameSchema;

export const createContactListSchema = z.object({ name: contactListNameSchema });
export type CreateContactListInput = z.infer<typeof createContactListSchema>;
export const updateContactListSchema = z.object({ name: contactListNameSchema });
export type UpdateContactListInput = z.infer<typeof updateContactListSchema>;

/** Contact list item: name 2 to 50, number 8 to 50 digits, a valid email or none (spec 02 section 5). */
export const createContactListItemSchema = z.object({
  name: nameSchema,
  number: contactNumberSchema,
  email: contactEmailSchema.optional().default(''),
  contactListId: idSchema,
});
export type CreateContactListItemInput = z.infer<typeof createContactListItemSchema>;

/** Only the fields sent change; an item stays in its list. */
export const updateContactListItemSchema = z.object({
  name: nameSchema.optional(),
  number: contactNumberSchema.optional(),
  email: contactEmailSchema.optional(),
});
export type UpdateContactListItemInput = z.infer<typeof updateContactListItemSchema>;

/** GET /contact-list-items: a list's items, 20 per page by name. */
export const listContactListItemsQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  contactListId: idSchema,
});
export type ListContactListItemsQuery = z.infer<typeof listContactListItemsQuerySchema>;

/** The import (POST /contact-lists/{id}/upload): .xls and .xlsx only (spec 02 section 5). */
export const CONTACT_LIST_IMPORT_EXTENSIONS = ['.xls', '.xlsx'] as const;
export const CONTACT_LIST_IMPORT_TYPES = [
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  // Browsers that do not know the extension send this; the server reads the file's own signature anyway.
  'application/octet-stream',
] as const;
export const CONTACT_LIST_IMPORT_ACCEPT = '.xls,.xlsx,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CONTACT_LIST_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** Most rows one import may carry. */
export const CONTACT_LIST_IMPORT_MAX_ROWS = 20000;
/** Invalid rows kept for the downloadable report; the count goes on past it. */
export const CONTACT_LIST_IMPORT_MAX_REPORTED = 5000;

/**
 * Header names the import recognises per field, in pt, en and es, compared lower-case and without accents
 * ("Número", "NUMERO" and "numero" are one column).
 */
export const CONTACT_LIST_IMPORT_COLUMNS = {
  name: ['nome', 'name', 'nombre'],
  number: ['numero', 'number', 'telefone', 'telefono', 'phone', 'celular', 'whatsapp', 'movil'],
  email: ['email', 'e-mail', 'correo', 'correo electronico'],
} as const;

/** How far the WhatsApp check of a list's numbers is: 'noConnection' says why unchecked items stay so. */
export const CONTACT_LIST_CHECK_STATES = ['idle', 'checking', 'noConnection'] as const;
export type ContactListCheckState = (typeof CONTACT_LIST_CHECK_STATES)[number];

export const CONTACT_LIST_IMPORT_STATES = ['pending', 'running', 'done', 'failed'] as const;
export type ContactListImportState = (typeof CONTACT_LIST_IMPORT_STATES)[number];

export interface ContactListImportView<D = string> {
  id: number;
  contactListId: number;
  status: ContactListImportState;
  fileName: string;
  /** Data rows read from the sheet (blank lines not counted). */
  total: number;
  processed: number;
  created: number;
  duplicates: number;
  invalid: number;
  /** Why the import failed (an error code), when it did. */
  error: string | null;
  createdAt: D;
  finishedAt: D | null;
}

export interface ContactListView<D = string> {
  id: number;
  name: string;
  companyId: number;
  contactsCount: number;
  /** Checked on WhatsApp and found there / not there; the rest are unchecked. */
  validCount: number;
  invalidCount: number;
  uncheckedCount: number;
  checkState: ContactListCheckState;
  /** A list a campaign made from a tag (spec 04 section 1): it goes with that campaign. */
  campaignId: number | null;
  lastImport: ContactListImportView<D> | null;
  createdAt: D;
  updatedAt: D;
}

export interface ContactListItemView<D = string> {
  id: number;
  name: string;
  number: string;
  email: string;
  /** Found on WhatsApp by the last check (false also while unchecked: see checkedAt). */
  isWhatsappValid: boolean;
  /** When the number was checked on WhatsApp; null: not checked yet. */
  checkedAt: D | null;
  companyId: number;
  contactListId: number;
  createdAt: D;
  updatedAt: D;
}

/** `company-{id}-ContactListItem` while an import runs (throttled) and when it ends. */
export interface ContactListImportEvent {
  action: 'import';
  contactListId: number;
  import: ContactListImportView;
}

/** The sample spreadsheet's language (its headers): GET /contact-lists/sample?lang=. */
export const contactListSampleQuerySchema = z.object({ lang: z.enum(['pt', 'en', 'es']).optional().default('pt') });
