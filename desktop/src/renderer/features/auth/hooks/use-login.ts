import { useState } from 'react';
import { differenceInCalendarDays, parseISO } from 'date-fns';
import { SUBSCRIPTION_WARNING_DAYS, type LoginInput } from '@atrium/shared';
import { login } from '../../../api/auth';
import { errorCodeOf, toastError } from '../../../api/errors';
import type { SessionUser } from '../../../api/types';
import { toast } from '../../../components/toasts';
import { i18n } from '../../../i18n';

/** Days until the company's due date (negative once past), or null without one. */
export const daysUntilDue = (dueDate: string | null | undefined, today = new Date()): number | null => {
  if (!dueDate) return null;
  const due = parseISO(dueDate);
  return Number.isNaN(due.getTime()) ? null : differenceInCalendarDays(due, today);
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
