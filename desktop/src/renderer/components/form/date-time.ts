/**
 * Dates and times typed as the app shows them (dd/MM/yyyy, 24 h), whatever the browser's locale: the
 * native date and time inputs follow the browser (MM/DD/YYYY, AM/PM in an English Chromium).
 */

const digits = (text: string) => text.replace(/\D/g, '');

/** "25122026" or "25/12/2026" → "25/12/2026" as it is typed. */
export const maskDate = (text: string): string => {
  const d = digits(text).slice(0, 8);
  return [d.slice(0, 2), d.slice(2, 4), d.slice(4, 8)].filter(Boolean).join('/');
};

/** "1430" or "14:30" → "14:30" as it is typed. */
export const maskTime = (text: string): string => {
  const d = digits(text).slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)}:${d.slice(2)}` : d;
};

/** "25/12/2026" → "2026-12-25"; null unless a whole, real date. */
export const dateFromDisplay = (text: string): string | null => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${m[3]}-${m[2]}-${m[1]}`;
};

/** "2026-12-25" (or the date part of "2026-12-25T14:30") → "25/12/2026"; '' when unreadable. */
export const dateToDisplay = (iso: string): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
};

/** Whether "HH:mm" is a real 24-hour time. */
export const isTime = (text: string): boolean => /^([01]\d|2[0-3]):[0-5]\d$/.test(text);
