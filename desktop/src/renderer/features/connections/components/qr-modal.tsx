import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Phone20Regular } from '@fluentui/react-icons';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { useRealtimeEvent } from '../../../api/socket';
import { connectionsApi, type Connection } from '../api/connections';
import type { SessionEvent } from '../hooks/use-connections';

/** QR code size of spec 01 section 2. */
export const QR_SIZE = 256;

export interface QrModalProps {
  /** The connection, as the live list holds it (its qrcode follows the whatsappSession events). */
  connection: Pick<Connection, 'id' | 'name' | 'qrcode' | 'provider'>;
  onClose: () => void;
}

/**
 * Shows the connection's QR code, live. An empty QR code (the phone has read it, or the session ended)
 * closes it. A sandbox connection also offers the simulated phone's scan.
 */
export function QrModal({ connection, onClose }: QrModalProps) {
  const { t } = useTranslation('connections');
  const { t: tc } = useTranslation();
  const [scanning, setScanning] = useState(false);
  const [pairingNumber, setPairingNumber] = useState('');
  const [pairingCode, setPairingCode] = useState('');
  const [requesting, setRequesting] = useState(false);
  const qrcode = connection.qrcode ?? '';
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  // The list's copy went from a QR code to none: close.
  const previous = useRef(qrcode);
  useEffect(() => {
    if (previous.current && !qrcode) closeRef.current();
    previous.current = qrcode;
  }, [qrcode]);

  // A session event for this connection with an empty QR code closes it too.
  useRealtimeEvent<SessionEvent>('whatsappSession', (event) => {
    if (event.session?.id === connection.id && 'qrcode' in event.session && !event.session.qrcode) closeRef.current();
  });

  const scan = async () => {
    setScanning(true);
    try {
      await connectionsApi.sandboxScan(connection.id);
    } catch (err) {
      toastError(err);
    } finally {
      setScanning(false);
    }
  };

  const requestCode = async () => {
    setRequesting(true);
    try {
      setPairingCode(await connectionsApi.pairingCode(connection.id, pairingNumber));
    } catch (err) {
      toastError(err);
    } finally {
      setRequesting(false);
    }
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface data-testid="qr-modal" style={{ maxWidth: 420 }}>
        <DialogBody>
          <DialogTitle>{t('qr.title')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12 }}>
            <Text style={{ color: tokens.colorNeutralForeground3, textAlign: 'center' }}>{t('qr.instructions')}</Text>
            <div
              style={{
                width: QR_SIZE + 24,
                height: QR_SIZE + 24,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                background: '#ffffff',
                borderRadius: tokens.borderRadiusMedium,
                border: `1px solid ${tokens.colorNeutralStroke2}`,
              }}
            >
              {qrcode ? (
                <QRCodeSVG value={qrcode} size={QR_SIZE} data-testid="qr-code" />
              ) : (
                <Spinner label={t('qr.waiting')} />
              )}
            </div>
            {connection.provider === 'sandbox' ? (
              <Button
                appearance="primary"
                icon={scanning ? <Spinner size="tiny" /> : <Phone20Regular />}
                disabled={scanning || !qrcode}
                data-testid="qr-sandbox-scan"
                onClick={() => void scan()}
              >
                {t('qr.sandboxScan')}
              </Button>
            ) : null}
            {qrcode ? (
              <div style={{ display: 'flex', gap: 8, alignItems: 'flex-end', width: '100%' }}>
                <Field label={t('qr.pairingNumber')} style={{ flex: 1 }}>
                  <Input
                    value={pairingNumber}
                    inputMode="tel"
                    data-testid="qr-pairing-number"
                    onChange={(_, data) => setPairingNumber(data.value)}
                  />
                </Field>
                <Button
                  disabled={requesting || pairingNumber.replace(/\D/g, '').length < 8}
                  data-testid="qr-pairing-request"
                  onClick={() => void requestCode()}
                >
                  {t('qr.pairingRequest')}
                </Button>
              </div>
            ) : null}
            {pairingCode ? (
              <Text weight="semibold" data-testid="qr-pairing-code">
                {t('qr.pairingCode', { code: pairingCode })}
              </Text>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onClose}>
              {tc('actions.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
