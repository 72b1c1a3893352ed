import { Button, Spinner } from '@fluentui/react-components';
import { ArrowClockwise20Regular, PlugDisconnected20Regular, QrCode20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { Connection } from '../api/connections';

export interface StatusActionsProps {
  connection: Pick<Connection, 'id' | 'status'>;
  onShowQr: () => void;
  onDisconnect: () => void;
  onTryAgain: () => void;
  onNewQr: () => void;
}

/** The session buttons of spec 01 section 4, one set per connection status. */
export function StatusActions({ connection, onShowQr, onDisconnect, onTryAgain, onNewQr }: StatusActionsProps) {
  const { t } = useTranslation('connections');
  const { id, status } = connection;
  switch (status) {
    case 'qrcode':
      return (
        <Button size="small" appearance="primary" icon={<QrCode20Regular />} data-testid={`connection-qr-${id}`} onClick={onShowQr}>
          {t('buttons.qrcode')}
        </Button>
      );
    case 'DISCONNECTED':
      return (
        <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }}>
          <Button size="small" icon={<ArrowClockwise20Regular />} data-testid={`connection-retry-${id}`} onClick={onTryAgain}>
            {t('buttons.tryAgain')}
          </Button>
          <Button size="small" icon={<QrCode20Regular />} data-testid={`connection-newqr-${id}`} onClick={onNewQr}>
            {t('buttons.newQr')}
          </Button>
        </div>
      );
    case 'OPENING':
      return (
        <Button size="small" disabled icon={<Spinner size="extra-tiny" />} data-testid={`connection-connecting-${id}`}>
          {t('buttons.connecting')}
        </Button>
      );
    case 'PAIRING':
    case 'TIMEOUT':
    case 'CONNECTED':
    case 'connected':
      return (
        <Button size="small" icon={<PlugDisconnected20Regular />} data-testid={`connection-disconnect-${id}`} onClick={onDisconnect}>
          {t('buttons.disconnect')}
        </Button>
      );
    default:
      return null;
  }
}
