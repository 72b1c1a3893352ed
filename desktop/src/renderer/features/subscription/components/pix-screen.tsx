import { useEffect, useRef, useState } from 'react';
import { Button, Field, Input, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Checkmark20Regular, CheckmarkCircle20Filled, Copy20Regular } from '@fluentui/react-icons';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { PIX_COPIED_MS, type PaymentEventPayload } from '@atrium/shared';
import { toastError } from '../../../api/errors';
import { useRealtimeEvent } from '../../../api/socket';
import type { PixCharge } from '../api/subscription';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalM, textAlign: 'center' },
  qr: { padding: tokens.spacingHorizontalM, backgroundColor: '#ffffff', borderRadius: tokens.borderRadiusMedium },
  code: { width: '100%' },
  waiting: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, color: tokens.colorNeutralForeground3 },
  paid: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, color: tokens.colorPaletteGreenForeground1 },
});

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/**
 * The checkout's last screen: the Pix QR code, its copy-and-paste code and a copy button ('copied' for 1 s);
 * waiting for the bank until the payment is confirmed, then paid.
 */
export function PixScreen({ charge }: { charge: PixCharge }) {
  const styles = useStyles();
  const { t } = useTranslation('subscription');
  const [copied, setCopied] = useState(false);
  // The bank's confirmation (company-{id}-payment, CONCLUIDA): the screen says paid instead of waiting.
  const [paid, setPaid] = useState(false);
  useRealtimeEvent<PaymentEventPayload>('payment', (event) => {
    if (event?.action === 'CONCLUIDA') setPaid(true);
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const code = charge.qrcode.qrcode;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
    } catch (err) {
      toastError(err);
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), PIX_COPIED_MS);
  };

  return (
    <div className={styles.root} data-testid="pix-screen">
      <Text weight="semibold" size={500}>
        {t('checkout.pix.title')}
      </Text>
      <Text>{t('checkout.pix.hint')}</Text>
      <div className={styles.qr}>
        <QRCodeSVG value={code} size={220} level="M" data-testid="pix-qrcode" />
      </div>
      <Text weight="semibold">{t('checkout.pix.amount', { value: brl.format(Number(charge.valor.original)) })}</Text>
      <Field label={t('checkout.pix.code')} className={styles.code}>
        <Input readOnly value={code} data-testid="pix-code" />
      </Field>
      <Button
        appearance="primary"
        icon={copied ? <Checkmark20Regular /> : <Copy20Regular />}
        onClick={() => void copy()}
        data-testid="pix-copy"
      >
        {copied ? t('checkout.pix.copied') : t('checkout.pix.copy')}
      </Button>
      {paid ? (
        <div className={styles.paid} data-testid="pix-paid" role="status">
          <CheckmarkCircle20Filled />
          <Text weight="semibold">{t('checkout.pix.paid')}</Text>
        </div>
      ) : (
        <div className={styles.waiting} data-testid="pix-waiting">
          <Spinner size="tiny" />
          <Text size={200}>{t('checkout.pix.waiting')}</Text>
        </div>
      )}
    </div>
  );
}
