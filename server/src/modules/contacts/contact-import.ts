import {
  CONTACT_IMPORT_COLUMNS,
  CONTACT_IMPORT_MAX_ROWS,
  contactImportRowSchema,
  type ContactImportRow,
  type FieldIssue,
} from '@atrium/shared';
import ExcelJS from 'exceljs';
import type { ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { presentContact } from './contact.presenter.js';
import { Contact } from './contact.entity.js';

/** A row as read from a sheet: column header to cell value. */
export type SheetRow = Record<string, unknown>;

export interface ImportResult {
  newContacts: { contactId: number; contactName: string }[];
  errorBag: { contactName: string; error: string; fields?: FieldIssue[] }[];
}

const columnKey = (header: string) =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

/** A cell as text: numbers without exponent or separators, rich text and hyperlinks by their text. */
export const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const cell = value as { richText?: { text?: unknown }[]; text?: unknown; result?: unknown; hyperlink?: unknown };
    if (Array.isArray(cell.richText)) return cell.richText.map((r) => cellText(r.text)).join('').trim();
    if (cell.text !== undefined) return cellText(cell.text);
    if (cell.result !== undefined) return cellText(cell.result);
    if (typeof cell.hyperlink === 'string') return cell.hyperlink.replace(/^mailto:/i, '').trim();
  }
  return '';
};

/** The row's name, number and email, whichever aliases its columns use (Nome/name, Telefone/phone/number/numero, Email). */
export const normaliseRow = (row: SheetRow): { name: string; number: string; email: string } => {
  const out = { name: '', number: '', email: '' };
  for (const [header, value] of Object.entries(row)) {
    const key = columnKey(header);
    for (const field of ['name', 'number', 'email'] as const) {
      if (!out[field] && (CONTACT_IMPORT_COLUMNS[field] as readonly string[]).includes(key)) out[field] = cellText(value);
    }
  }
  return out;
};

const CHUNK = 500;

/**
 * Creates the rows' contacts, one verdict per row: a bad row lands in errorBag and never fails the others.
 * Numbers are stored as digits without asking WhatsApp (a bulk check would hammer the connection);
 * a number already in the company, or earlier in the same file, is ERR_DUPLICATED_CONTACT.
 */
export const importContactRows = async (ctx: ServiceContext, rows: SheetRow[]): Promise<ImportResult> => {
  if (rows.length > CONTACT_IMPORT_MAX_ROWS) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { limitRows: CONTACT_IMPORT_MAX_ROWS });
  const companyId = requireTenant(ctx.em);
  const result: ImportResult = { newContacts: [], errorBag: [] };
  const candidates: ContactImportRow[] = [];
  const seen = new Set<string>();
  for (const raw of rows) {
    const row = normaliseRow(raw ?? {});
    if (!row.name && !row.number && !row.email) continue; // a blank line of the sheet
    const parsed = contactImportRowSchema.safeParse(row);
    if (!parsed.success) {
      result.errorBag.push({
        contactName: row.name || row.number,
        error: 'ERR_VALIDATION',
        fields: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
      continue;
    }
    if (seen.has(parsed.data.number)) {
      result.errorBag.push({ contactName: parsed.data.name, error: 'ERR_DUPLICATED_CONTACT' });
      continue;
    }
    seen.add(parsed.data.number);
    candidates.push(parsed.data);
  }

  const created: number[] = [];
  for (let i = 0; i < candidates.length; i += CHUNK) {
    const chunk = candidates.slice(i, i + CHUNK);
    // Numbers already taken (now, or by a concurrent request: the unique index) come back as no row.
    const inserted = await ctx.em.execute<{ id: number; number: string }[]>(
      `insert into contacts (company_id, name, number, email, profile_pic_url, is_group, uuid, created_at, updated_at)
       values ${chunk.map(() => "(?, ?, ?, ?, '', false, gen_random_uuid(), now(), now())").join(', ')}
       on conflict do nothing
       returning id, number`,
      chunk.flatMap((c) => [companyId, c.name, c.number, c.email]),
    );
    const idOf = new Map(inserted.map((r) => [r.number, r.id]));
    for (const row of chunk) {
      const contactId = idOf.get(row.number);
      if (contactId === undefined) {
        result.errorBag.push({ contactName: row.name, error: 'ERR_DUPLICATED_CONTACT' });
      } else {
        result.newContacts.push({ contactId, contactName: row.name });
        created.push(contactId);
      }
    }
  }

  for (let i = 0; i < created.length; i += CHUNK) {
    const contacts = await ctx.em.find(Contact, { id: { $in: created.slice(i, i + CHUNK) } }, { orderBy: { id: 'asc' } });
    for (const contact of contacts) {
      ctx.events.emit('contact.changed', { companyId, action: 'create', contact: presentContact(contact) });
    }
  }
  return result;
};

/**
 * The declared uncompressed size of a zip's entries, from its central directory, or null when the buffer
 * is not a zip. Checked before unpacking, so a small file cannot expand into gigabytes in memory.
 */
export const zipUncompressedSize = (data: Buffer): number | null => {
  if (data.length < 22 || data.readUInt32LE(0) !== 0x04034b50) return null;
  // The end-of-central-directory record sits in the last 22 bytes plus at most a 64 KB comment.
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const entries = data.readUInt16LE(eocd + 10);
  let offset = data.readUInt32LE(eocd + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > data.length || data.readUInt32LE(offset) !== 0x02014b50) return null;
    const size = data.readUInt32LE(offset + 24);
    // 0xffffffff: a zip64 entry, whose real size is elsewhere; far beyond any sheet we accept anyway.
    total += size;
    offset += 46 + data.readUInt16LE(offset + 28) + data.readUInt16LE(offset + 30) + data.readUInt16LE(offset + 32);
  }
  return total;
};

const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;

const unreadable = () =>
  new AppError('ERR_VALIDATION', { fields: [{ path: 'file', message: 'not a readable .xlsx workbook' }] });

/** The first sheet of an .xlsx file as rows keyed by the first row's headers. */
export const readFirstSheet = async (data: Buffer): Promise<SheetRow[]> => {
  const unpacked = zipUncompressedSize(data);
  if (unpacked === null) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { expected: '.xlsx' });
  if (unpacked > MAX_UNPACKED_BYTES) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { limitBytes: MAX_UNPACKED_BYTES });
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its argument as the pre-generic Buffer; at run time any Node Buffer does.
    await workbook.xlsx.load(data as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch {
    throw unreadable();
  }
  // Every workbook has a sheet; an archive without one is some other zip.
  const sheet = workbook.worksheets[0];
  if (!sheet) throw unreadable();
  if (sheet.actualRowCount > CONTACT_IMPORT_MAX_ROWS + 1) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', { limitRows: CONTACT_IMPORT_MAX_ROWS });
  }
  // The first non-empty row names the columns.
  let headers: string[] | null = null;
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    if (!headers) {
      const names: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        names[col] = cellText(cell.value);
      });
      headers = names;
      return;
    }
    const record: SheetRow = {};
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      const header = headers![col];
      if (header) record[header] = cell.value;
    });
    rows.push(record);
  });
  return rows;
};
