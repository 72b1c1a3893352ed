import { format, isToday, isValid, parseISO } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import { es } from 'date-fns/locale/es';
import { ptBR } from 'date-fns/locale/pt-BR';
import type { Locale } from 'date-fns';
import i18next from 'i18next';

/** Dates are shown dd/MM/yyyy (spec 01 section 1); times HH:mm. */
export const DATE_FORMAT = 'dd/MM/yyyy';
export const TIME_FORMAT = 'HH:mm';
export const DATE_TIME_FORMAT = `${DATE_FORMAT} ${TIME_FORMAT}`;

const LOCALES: Record<string, Locale> = { pt: ptBR, en: enUS, es };

/** The date-fns locale of the current language (Portuguese by default, as the family does). */
export const dateLocale = (language = i18next.language): Locale => LOCALES[language] ?? ptBR;

/** A Date from an API value: ISO strings, date-only strings (read as a local date), numbers or Dates. */
export const toDate = (value: string | number | Date): Date =>
  value instanceof Date ? value : typeof value === 'number' ? new Date(value) : parseISO(value);

const safe = (value: string | number | Date | null | undefined, pattern: string): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  return isValid(date) ? format(date, pattern, { locale: dateLocale() }) : '';
};

export const formatDate = (value: string | number | Date | null | undefined): string => safe(value, DATE_FORMAT);
export const formatTime = (value: string | number | Date | null | undefined): string => safe(value, TIME_FORMAT);
export const formatDateTime = (value: string | number | Date | null | undefined): string => safe(value, DATE_TIME_FORMAT);

/** Ticket-list style: HH:mm when the date is today, else dd/MM/yyyy. */
export const formatListTime = (value: string | number | Date | null | undefined): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  if (!isValid(date)) return '';
  return isToday(date) ? formatTime(date) : formatDate(date);
};

/** A length in whole seconds as m:ss (h:mm:ss from an hour), the way audio players show it. */
export const formatDuration = (seconds: number): string => {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
};
