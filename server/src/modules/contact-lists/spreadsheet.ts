import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { CONTACT_LIST_IMPORT_COLUMNS, CONTACT_LIST_IMPORT_MAX_ROWS } from '@atrium/shared';
import { AppError } from '../../errors.js';
import { cellText, zipUncompressedSize } from '../contacts/index.js';

/**
 * Reading a contact list's spreadsheet: .xlsx with ExcelJS, .xls (the binary format, which ExcelJS cannot
 * read) with SheetJS (`@e965/xlsx`, its 0.20 line: the `xlsx` package on npm is frozen at a version with
 * known CVEs). The format is told by the file's own signature, never by its name, and each reader is only
 * handed its own format: a zip (OOXML) or an OLE2 compound file. The first sheet's first non-empty row
 * names the columns.
 */
export type SheetFormat = 'xls' | 'xlsx';

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** An .xlsx unpacks to at most this much: a small zip cannot expand into gigabytes in memory. */
const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;

/** The format by signature; null when the file is neither (a renamed CSV, an image...). */
export const sheetFormatOf = (data: Buffer): SheetFormat | null => {
  if (data.length >= 8 && data.subarray(0, 8).equals(OLE2)) return 'xls';
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) return 'xlsx';
  return null;
};

/** Refuses what is not a spreadsheet or would unpack too large (checked when the file is uploaded). */
export const assertSpreadsheet = (data: Buffer): SheetFormat => {
  const format = sheetFormatOf(data);
  if (!format) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { expected: '.xls or .xlsx' });
  if (format === 'xlsx') {
    const unpacked = zipUncompressedSize(data);
    if (unpacked === null) throw new AppError('ERR_SPREADSHEET_UNREADABLE');
    if (unpacked > MAX_UNPACKED_BYTES) throw new AppError('ERR_PAYLOAD_TOO_LARGE', { limitBytes: MAX_UNPACKED_BYTES });
  }
  return format;
};

const tooManyRows = () => new AppError('ERR_PAYLOAD_TOO_LARGE', { limitRows: CONTACT_LIST_IMPORT_MAX_ROWS });

/** A non-empty row of the first sheet: its number as the user sees it (1-based) and its cells as text. */
interface SheetRow {
  row: number;
  cells: string[];
}

const readXlsx = async (data: Buffer): Promise<SheetRow[]> => {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its argument as the pre-generic Buffer; at run time any Node Buffer does.
    await workbook.xlsx.load(data as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch {
    throw new AppError('ERR_SPREADSHEET_UNREADABLE');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new AppError('ERR_SPREADSHEET_UNREADABLE');
  if (sheet.actualRowCount > CONTACT_LIST_IMPORT_MAX_ROWS + 1) throw tooManyRows();
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      cells[col - 1] = cellText(cell.value);
    });
    rows.push({ row: rowNumber, cells: Array.from(cells, (c) => c ?? '') });
  });
  return rows;
};

const readXls = (data: Buffer): SheetRow[] => {
  let workbook: XLSX.WorkBook;
  try {
    // Only what is needed: no formulas, styles or HTML; one row more than allowed tells "too many".
    workbook = XLSX.read(data, { type: 'buffer', sheets: 0, sheetRows: CONTACT_LIST_IMPORT_MAX_ROWS + 2, cellFormula: false, cellHTML: false, cellStyles: false });
  } catch {
    throw new AppError('ERR_SPREADSHEET_UNREADABLE');
  }
  const sheet = workbook.SheetNames[0] ? workbook.Sheets[workbook.SheetNames[0]] : undefined;
  if (!sheet) throw new AppError('ERR_SPREADSHEET_UNREADABLE');
  // Blank rows kept, so each row's place in the sheet is known (the range may start below row 1).
  const raw = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '', blankrows: true });
  const first = sheet['!ref'] ? XLSX.utils.decode_range(sheet['!ref']).s.r + 1 : 1;
  const rows = raw
    .map((cells, i) => ({ row: first + i, cells: cells.map((value) => cellText(value)) }))
    .filter((r) => r.cells.some((c) => c !== ''));
  if (rows.length > CONTACT_LIST_IMPORT_MAX_ROWS + 1) throw tooManyRows();
  return rows;
};

/** Header text as compared: lower case, no accents, single spaces. */
export const headerKey = (header: string): string =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

export interface SheetRecord {
  /** Its row in the sheet, 1-based, as the user sees it. */
  row: number;
  name: string;
  number: string;
  email: string;
}

/**
 * The first sheet's data rows as name, number and email, whichever language the headers are in.
 * ERR_SPREADSHEET_UNREADABLE for a broken file or one without a number column.
 */
export const readContactSheet = async (data: Buffer, format: SheetFormat): Promise<SheetRecord[]> => {
  const rows = format === 'xlsx' ? await readXlsx(data) : readXls(data);
  const headerAt = rows.findIndex((r) => r.cells.some((c) => c.trim() !== ''));
  if (headerAt < 0) return [];
  const headers = rows[headerAt].cells.map(headerKey);
  const column = (field: keyof typeof CONTACT_LIST_IMPORT_COLUMNS) =>
    headers.findIndex((h) => (CONTACT_LIST_IMPORT_COLUMNS[field] as readonly string[]).includes(h));
  const at = { name: column('name'), number: column('number'), email: column('email') };
  if (at.number < 0) throw new AppError('ERR_SPREADSHEET_UNREADABLE', { reason: 'no number column' });
  const records: SheetRecord[] = [];
  for (const { row, cells } of rows.slice(headerAt + 1)) {
    const get = (index: number) => (index >= 0 ? (cells[index] ?? '').trim() : '');
    const record = { row, name: get(at.name), number: get(at.number), email: get(at.email) };
    if (record.name || record.number || record.email) records.push(record);
  }
  return records;
};
