import type { TFunction } from 'i18next';
import { PASSWORD_RULE_MESSAGES } from '@atrium/shared';

/** The part of a zod issue the forms read (zod 4). */
interface Issue {
  code: string;
  path: PropertyKey[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
  origin?: string;
  message?: string;
}

/** Any shared zod schema (the forms validate with the same schemas the server uses). */
export interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Issue[] } };
}

export type FieldErrors = Record<string, string>;

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** What went wrong with a field, in the words the forms know. */
export type IssueKind = 'required' | 'tooShort' | 'tooLong' | 'email' | 'invalid' | 'passwordRule';

/**
 * A form's own messages for some fields (e.g. the spec's "Mensagem muito curta"), by field and kind; a
 * plain string is the field's message whatever went wrong (a list of rows, where one word fits all).
 */
export type FieldMessages = Partial<Record<string, string | Partial<Record<IssueKind, string>>>>;

/** The kind of one issue. */
export const issueKind = (issue: Issue, value: unknown): IssueKind => {
  if (isBlank(value)) return 'required';
  // Every refusal of the shared password rule reads as the rule itself.
  if ((PASSWORD_RULE_MESSAGES as readonly string[]).includes(issue.message ?? '')) return 'passwordRule';
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' || typeof value === 'string' ? 'tooShort' : 'invalid';
    case 'too_big':
      return issue.origin === 'string' || typeof value === 'string' ? 'tooLong' : 'invalid';
    case 'invalid_format':
      return issue.format === 'email' ? 'email' : 'invalid';
    case 'invalid_type':
      return 'required';
    default:
      return 'invalid';
  }
};

/** The message for one issue, in the common namespace's `validation` words. */
export const issueMessage = (issue: Issue, value: unknown, t: TFunction): string => {
  const kind = issueKind(issue, value);
  switch (kind) {
    case 'tooShort':
      return t('validation.tooShort', { ns: 'common', min: Number(issue.minimum) });
    case 'tooLong':
      return t('validation.tooLong', { ns: 'common', max: Number(issue.maximum) });
    default:
      return t(`validation.${kind}`, { ns: 'common' });
  }
};

/**
 * Validates form values with a shared schema: the parsed data, or one translated message per field
 * (the first issue of each; `messages` replaces the common words for some fields).
 */
export const validate = <T>(
  schema: Schema<T>,
  values: Record<string, unknown>,
  t: TFunction,
  messages: FieldMessages = {},
): { ok: true; data: T; errors: FieldErrors } | { ok: false; errors: FieldErrors } => {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!field || errors[field]) continue;
    const own = messages[field];
    errors[field] = (typeof own === 'string' ? own : own?.[issueKind(issue, values[field])]) ?? issueMessage(issue, values[field], t);
  }
  return { ok: false, errors };
};
