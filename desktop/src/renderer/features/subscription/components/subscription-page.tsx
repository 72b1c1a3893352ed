import { useEffect, useState } from 'react';
import { Button, Field, Input, MessageBar, MessageBarBody, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { differenceInCalendarDays } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toastError } from '../../../api/errors';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { toDate } from '../../../i18n/format';
import { useCurrentUser } from '../../../stores/auth-store';
import { subscriptionApi, type Invoice } from '../api/subscription';
import { usePaymentConfirmation } from '../hooks/use-payment-confirmation';
import { CheckoutDialog } from './checkout-dialog';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '480px' },
  item: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  label: { color: tokens.colorNeutralForeground3 },
});

/** Whole days left until `trialExpiration` (0 once it has passed), or null without a trial. */
export const trialDaysLeft = (trialExpiration: string | null | undefined, today = new Date()): number | null => {
  if (!trialExpiration) return null;
  const end = toDate(trialExpiration);
  if (Number.isNaN(end.getTime())) return null;
  return Math.max(0, differenceInCalendarDays(end, today));
};

/**
 * /subscription: the trial's remaining days, the charge email (read-only) and the sign-now button, which
 * opens the checkout for the company's open invoice. /subscription?invoiceId=N (the invoices screen's Pay
 * button) opens the checkout of that invoice at once.
 */
export default function SubscriptionPage() {
  const styles = useStyles();
  const { t } = useTranslation('subscription');
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const [checkout, setCheckout] = useState<Invoice | null>(null);
  const [loading, setLoading] = useState(false);
  const [noInvoice, setNoInvoice] = useState(false);
  usePaymentConfirmation();

  const requestedId = Number(params.get('invoiceId'));
  useEffect(() => {
    if (!Number.isInteger(requestedId) || requestedId <= 0) return;
    let current = true;
    subscriptionApi.invoice(requestedId).then(
      (invoice) => current && setCheckout(invoice),
      (err: unknown) => current && toastError(err),
    );
    return () => {
      current = false;
    };
  }, [requestedId]);

  const signNow = async () => {
    setLoading(true);
    try {
      const invoice = await subscriptionApi.openInvoice();
      setNoInvoice(invoice === null);
      setCheckout(invoice);
    } catch (err) {
      toastError(err);
    } finally {
      setLoading(false);
    }
  };

  const close = () => {
    setCheckout(null);
    if (params.has('invoiceId')) setParams({}, { replace: true });
  };

  const days = trialDaysLeft(user?.company?.trialExpiration);
  const trialText = days === null ? t('trial.none') : days === 0 ? t('trial.ended') : t('trial.days', { count: days });

  return (
    <PageContainer>
      <PageHeader title={t('title')} />
      <PageContent>
        <div className={styles.list}>
          <div className={styles.item}>
            <Text className={styles.label}>{t('trial.label')}</Text>
            <Text data-testid="subscription-trial">{trialText}</Text>
          </div>
          <Field label={t('chargeEmail')}>
            <Input readOnly value={user?.company?.email || user?.email || ''} data-testid="subscription-email" />
          </Field>
          {noInvoice ? (
            <MessageBar intent="info" data-testid="subscription-no-invoice">
              <MessageBarBody>{t('noInvoice')}</MessageBarBody>
            </MessageBar>
          ) : null}
          <div>
            <Button
              appearance="primary"
              size="large"
              disabled={loading}
              icon={loading ? <Spinner size="tiny" /> : undefined}
              onClick={() => void signNow()}
              data-testid="subscription-sign"
            >
              {t('signNow')}
            </Button>
          </div>
        </div>
      </PageContent>
      {checkout ? <CheckoutDialog key={checkout.id} invoice={checkout} onClose={close} /> : null}
    </PageContainer>
  );
}
