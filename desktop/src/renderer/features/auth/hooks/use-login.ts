import { useState } from 'react';
import { SUBSCRIPTION_WARNING_DAYS, type LoginInput } from '@atrium/shared';
import { login } from '../../../api/auth';
import { errorCodeOf, toastError } from '../../../api/errors';
import type { SessionUser } from '../../../api/types';
import { toast } from '../../../components/toasts';
import { i18n } from '../../../i18n';

/**
 * Days until the company's due date (yyyy-MM-dd; negative once past), or null without one. Counted by
 * calendar day in plain arithmetic, not with date-fns: the login screen loads no date library.
 */
export const daysUntilDue = (dueDate: string | null | undefined, today = new Date()): number | null => {
  const match = dueDate ? /^(\d{4})-(\d{2})-(\d{2})/.exec(dueDate) : null;
  if (!match) return null;
  // Both days at UTC midnight: a daylight-saving change in between does not shift the count.
  const due = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const now = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return Math.round((due - now) / 86_400_000);
};

/** Spec 01 section 4: fewer than 5 days left shows a warning at login. */
export const warnIfSubscriptionEnding = (user: SessionUser, today = new Date()): boolean => {
  const days = daysUntilDue(user.company?.dueDate, today);
  if (days === null || days < 0 || days >= SUBSCRIPTION_WARNING_DAYS) return false;
  toast.warning(
    days === 0
      ? i18n.t('session.subscriptionEndsToday', { ns: 'common' })
      : i18n.t('session.subscriptionEnding', { ns: 'common', count: days }),
  );
  return true;
};

/** The login form's submit: logs in, warns about a subscription ending soon, shows failures. */
export function useLogin() {
  const [submitting, setSubmitting] = useState(false);
  /** The last failure's error, kept on screen for an expired subscription. */
  const [failure, setFailure] = useState<unknown>(null);
  const submit = async (input: LoginInput): Promise<boolean> => {
    setSubmitting(true);
    setFailure(null);
    try {
      const data = await login(input);
      warnIfSubscriptionEnding(data.user);
      return true;
    } catch (err) {
      toastError(err);
      if (errorCodeOf(err) === 'ERR_SUBSCRIPTION_EXPIRED') setFailure(err);
      return false;
    } finally {
      setSubmitting(false);
    }
  };
  return { submit, submitting, failure };
}
