import { isAxiosError } from 'axios';
import { TOAST_ERROR_MS } from '@atrium/shared';
import { toast, type ToastMessage } from '../components/toasts';
import { i18n } from '../i18n';

/** The body of an API error: `{"error": CODE, ...extra}` (shared/src/errors.ts). */
const bodyOf = (err: unknown): Record<string, unknown> | undefined => {
  if (isAxiosError(err)) {
    const data = err.response?.data;
    return data && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
  }
  if (err && typeof err === 'object' && 'error' in err) return err as Record<string, unknown>;
  return undefined;
};

/** The error code an API call failed with, if any (`ERR_...` or whatever text the server sent). */
export const errorCodeOf = (err: unknown): string | undefined => {
  const value = bodyOf(err)?.error;
  return typeof value === 'string' ? value : undefined;
};

/** The HTTP status of a failed call. */
export const errorStatusOf = (err: unknown): number | undefined => (isAxiosError(err) ? err.response?.status : undefined);

/**
 * A due date (yyyy-MM-dd, as the server sends it) shown the app's way, dd/MM/yyyy, without date-fns: this
 * file is part of the start, and the login screen needs no date library.
 */
const showDate = (value: string): string => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : value;
};

/** Values a message may interpolate, with dates shown the app's way. */
const interpolation = (body: Record<string, unknown>): Record<string, unknown> => {
  const values: Record<string, unknown> = { ...body };
  if (typeof body.dueDate === 'string') values.dueDate = showDate(body.dueDate);
  // A record other records still name (ERR_*_USED_BY_FLOWS): the message names them.
  if (Array.isArray(body.flows)) {
    values.flowNames = body.flows
      .map((f) => (f && typeof f === 'object' && typeof (f as { name?: unknown }).name === 'string' ? `"${(f as { name: string }).name}"` : null))
      .filter(Boolean)
      .join(', ');
  }
  return values;
};

/**
 * What to tell the user about a failure: the translation of its code when one exists, otherwise the
 * raw text (spec 01 section 8).
 */
export const errorMessage = (err: unknown): string => {
  const body = bodyOf(err);
  const code = errorCodeOf(err);
  if (code) {
    const key = `errors.${code}`;
    if (/^ERR_[A-Z0-9_]+$/.test(code) && i18n.exists(key, { ns: 'common' })) {
      return i18n.t(key, { ns: 'common', ...interpolation(body ?? {}) });
    }
    return code;
  }
  if (typeof body?.message === 'string' && body.message) return body.message;
  if (isAxiosError(err) && !err.response) return i18n.t('errors.network', { ns: 'common' });
  if (typeof err === 'string' && err) return err;
  if (err instanceof Error && err.message) return err.message;
  return i18n.t('errors.unknown', { ns: 'common' });
};

/** The one error handler features use: shows the failure as an error toast for 2 s. */
export const toastError = (err: unknown): ToastMessage => toast.error(errorMessage(err), { timeout: TOAST_ERROR_MS });
