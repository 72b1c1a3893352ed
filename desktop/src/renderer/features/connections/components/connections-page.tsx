import { useState } from 'react';
import {
  Badge,
  Button,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  Add20Regular,
  CheckmarkCircle20Filled,
  Delete20Regular,
  DismissCircle20Filled,
  Edit20Regular,
  QrCode20Regular,
  Star20Filled,
  Warning20Filled,
} from '@fluentui/react-icons';
import { can } from '@atrium/shared';
import { format } from 'date-fns';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useResponsiveTable } from '../../../components/responsive';
import { toastError } from '../../../api/errors';
import { queryClient } from '../../../api/query';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { RowAction } from '../../../components/row-action';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { toast } from '../../../components/toasts';
import { useCurrentUser } from '../../../stores/auth-store';
import { CONNECTIONS_KEY, connectionsApi, type Connection } from '../api/connections';
import { useConnections } from '../hooks/use-connections';
import { ConnectionModal } from './connection-modal';
import { QrModal } from './qr-modal';
import { StatusActions } from './status-actions';

const useStyles = makeStyles({
  status: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  ok: { color: tokens.colorPaletteGreenForeground1 },
  bad: { color: tokens.colorPaletteRedForeground1 },
  warn: { color: tokens.colorPaletteDarkOrangeForeground1 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalXS },
  reason: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, maxWidth: '320px' },
});

/**
 * The server's close reason ("connectionReplaced:440": a name, WhatsApp's status code) in the language;
 * anything else (a row written before the codes) as it is.
 */
const closeReasonText = (t: TFunction<'connections'>, reason: string): string => {
  const [name, code] = reason.split(':');
  if (!/^[a-zA-Z]+$/.test(name)) return reason;
  const text = t(`closeReasons.${name}`, { defaultValue: '' });
  if (!text) return reason;
  return code ? `${text} (${code})` : text;
};

/** Last update as the connections table shows it (spec 01 section 2). */
export const formatLastUpdate = (value: string | null | undefined): string => {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : format(date, 'dd/MM/yy HH:mm');
};

function StatusIcon({ status }: { status: string }) {
  const styles = useStyles();
  if (status === 'CONNECTED' || status === 'connected') return <CheckmarkCircle20Filled className={styles.ok} />;
  if (status === 'qrcode') return <QrCode20Regular className={styles.warn} />;
  if (status === 'OPENING' || status === 'PAIRING') return <Spinner size="extra-tiny" />;
  if (status === 'DISCONNECTED' || status === 'TIMEOUT') return <DismissCircle20Filled className={styles.bad} />;
  return <Warning20Filled className={styles.warn} />;
}

/** /connections. */
export default function ConnectionsPage() {
  const styles = useStyles();
  const narrow = useResponsiveTable();
  const { t } = useTranslation('connections');
  const { t: tc } = useTranslation();
  const user = useCurrentUser();
  const { data, isLoading } = useConnections();
  const connections = data ?? [];
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [qrId, setQrId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const [disconnecting, setDisconnecting] = useState<Connection | null>(null);

  const canAdd = can(user?.profile, 'connections-page:addConnection');
  const canSession = can(user?.profile, 'connections-page:actionButtons');
  const canEdit = can(user?.profile, 'connections-page:editOrDeleteConnection');
  const qrConnection = qrId === null ? undefined : connections.find((c) => c.id === qrId);

  const run = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      toastError(err);
    }
  };

  const remove = async (connection: Connection) => {
    try {
      await connectionsApi.remove(connection.id);
      queryClient.setQueryData<Connection[]>(CONNECTIONS_KEY, (old) => old?.filter((c) => c.id !== connection.id));
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
      toast.success(t('toasts.deleted'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          canAdd ? (
            <Button appearance="primary" icon={<Add20Regular />} data-testid="connections-add" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          ) : null
        }
      />
      <PageContent>
        <ListBody loading={isLoading} empty={connections.length === 0} emptyTitle={t('empty')}>
          <Table aria-label={t('title')} size="medium">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>{t('columns.name')}</TableHeaderCell>
                <TableHeaderCell>{t('columns.status')}</TableHeaderCell>
                {canSession ? <TableHeaderCell>{t('columns.session')}</TableHeaderCell> : null}
                <TableHeaderCell className={narrow.secondary}>{t('columns.lastUpdate')}</TableHeaderCell>
                <TableHeaderCell className={narrow.secondary}>{t('columns.default')}</TableHeaderCell>
                <TableHeaderCell>{t('columns.actions')}</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {connections.map((c) => (
                <TableRow key={c.id} data-testid={`connection-row-${c.id}`}>
                  <TableCell>
                    {c.name}
                    {c.provider === 'sandbox' ? (
                      <Badge appearance="tint" color="informative" size="small" style={{ marginLeft: 8 }}>
                        {t('modal.providers.sandbox')}
                      </Badge>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <Tooltip
                      relationship="description"
                      content={t(`statusHint.${c.status}`, { defaultValue: c.status })}
                    >
                      <span className={styles.status}>
                        <StatusIcon status={c.status} />
                        <span data-testid={`connection-status-${c.id}`} data-status={c.status}>
                          {t(`statusLabel.${c.status}`, { defaultValue: c.status })}
                        </span>
                      </span>
                    </Tooltip>
                    {c.status !== 'CONNECTED' && c.disconnectReason ? (
                      <div className={styles.reason} data-testid={`connection-reason-${c.id}`}>
                        {closeReasonText(t, c.disconnectReason)}
                      </div>
                    ) : null}
                  </TableCell>
                  {canSession ? (
                    <TableCell>
                      <StatusActions
                        connection={c}
                        onShowQr={() => setQrId(c.id)}
                        onDisconnect={() => setDisconnecting(c)}
                        onTryAgain={() => void run(() => connectionsApi.startSession(c.id))}
                        onNewQr={() =>
                          void run(async () => {
                            await connectionsApi.restartSession(c.id);
                            setQrId(c.id);
                          })
                        }
                      />
                    </TableCell>
                  ) : null}
                  <TableCell className={narrow.secondary}>{formatLastUpdate(c.updatedAt)}</TableCell>
                  <TableCell className={narrow.secondary}>
                    {c.isDefault ? (
                      <Star20Filled aria-label={t('yes')} style={{ color: tokens.colorPaletteGoldForeground2 }} />
                    ) : null}
                  </TableCell>
                  <TableCell>
                    {canEdit ? (
                      <div className={styles.actions}>
                        <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} testId={`connection-edit-${c.id}`} onClick={() => setEditing(c)} />
                        <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} testId={`connection-delete-${c.id}`} onClick={() => setDeleting(c)} />
                      </div>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ListBody>
      </PageContent>
      {editing ? (
        <ConnectionModal
          key={editing === 'new' ? 'new' : editing.id}
          connection={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {qrConnection ? <QrModal connection={qrConnection} onClose={() => setQrId(null)} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('confirmDelete.body')}
      </ConfirmationDialog>
      <ConfirmationDialog
        open={disconnecting !== null}
        onOpenChange={(open) => !open && setDisconnecting(null)}
        title={t('confirmDisconnect.title', { name: disconnecting?.name ?? '' })}
        confirmLabel={t('buttons.disconnect')}
        onConfirm={() => (disconnecting ? run(() => connectionsApi.logoutSession(disconnecting.id)) : undefined)}
      >
        {t('confirmDisconnect.body')}
      </ConfirmationDialog>
    </PageContainer>
  );
}
