import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CHECKOUT_SUCCESS_REDIRECT_MS, type PaymentEventPayload } from '@atrium/shared';
import { queryClient } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { toast } from '../../../components/toasts';
import { formatDate } from '../../../i18n/format';
import { sessionHints } from '../../../platform';
import { useAuthStore } from '../../../stores/auth-store';

/**
 * Spec 01 section 4: when the company's payment is confirmed (company-{id}-payment, action CONCLUIDA),
 * a success toast names the new due date and the app goes to / 4 s later.
 */
export function usePaymentConfirmation(): void {
  const { t } = useTranslation('subscription');
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  useRealtimeEvent<PaymentEventPayload>('payment', (event) => {
    if (event?.action !== 'CONCLUIDA') return;
    const dueDate = (event.company as { dueDate?: string | null } | null)?.dueDate ?? null;
    const { user, updateUser } = useAuthStore.getState();
    // The top bar's "active until" and the login warning read the session's company.
    if (dueDate && user?.company) {
      updateUser({ company: { ...user.company, dueDate } });
      sessionHints.save({ companyId: user.companyId, userId: user.id, dueDate });
    }
    void queryClient.invalidateQueries({ queryKey: ['invoices'] });
    toast.success(dueDate ? t('paid', { date: formatDate(dueDate) }) : t('paidNoDate'));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => navigate('/'), CHECKOUT_SUCCESS_REDIRECT_MS);
  });
}
