import type { TFunction } from 'i18next';

/** The part of a zod issue the forms read (zod 4). */
interface Issue {
  code: string;
  path: PropertyKey[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
  origin?: string;
}

/** Any shared zod schema (the forms validate with the same schemas the server uses). */
export interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Issue[] } };
}

export type FieldErrors = Record<string, string>;

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The message for one issue, in the common namespace's `validation` words. */
export const issueMessage = (issue: Issue, value: unknown, t: TFunction): string => {
  if (isBlank(value)) return t('validation.required', { ns: 'common' });
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' || typeof value === 'string'
        ? t('validation.tooShort', { ns: 'common', min: Number(issue.minimum) })
        : t('validation.invalid', { ns: 'common' });
    case 'too_big':
      return issue.origin === 'string' || typeof value === 'string'
        ? t('validation.tooLong', { ns: 'common', max: Number(issue.maximum) })
        : t('validation.invalid', { ns: 'common' });
    case 'invalid_format':
      return issue.format === 'email' ? t('validation.email', { ns: 'common' }) : t('validation.invalid', { ns: 'common' });
    case 'invalid_type':
      return t('validation.required', { ns: 'common' });
    default:
      return t('validation.invalid', { ns: 'common' });
  }
};

/**
 * Validates form values with a shared schema: the parsed data, or one translated message per field
 * (the first issue of each).
 */
export const validate = <T>(
  schema: Schema<T>,
  values: Record<string, unknown>,
  t: TFunction,
): { ok: true; data: T; errors: FieldErrors } | { ok: false; errors: FieldErrors } => {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!field || errors[field]) continue;
    errors[field] = issueMessage(issue, values[field], t);
  }
  return { ok: false, errors };
};
