import { useState } from 'react';
import { Badge, Spinner, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { CheckmarkCircle20Filled, DismissCircle20Filled, QrCode20Regular, Star20Filled, Warning20Filled } from '@fluentui/react-icons';
import { can } from '@atrium/shared';
import { format } from 'date-fns';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { ListBody } from '../../../components/list-body';
import { DataTable, DeleteDialog, EditDeleteActions, ListHeader, useListDialogs, type Column } from '../../../components/list-kit';
import { PageContainer, PageContent } from '../../../components/page-container';
import { useCurrentUser } from '../../../stores/auth-store';
import { CONNECTIONS_KEY, connectionsApi, type Connection } from '../api/connections';
import { useConnections } from '../hooks/use-connections';
import { ConnectionModal } from './connection-modal';
import { QrModal } from './qr-modal';
import { StatusActions } from './status-actions';

const useStyles = makeStyles({
  // A narrow column puts the badge under the name, whole.
  name: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS, rowGap: '2px' },
  badge: { whiteSpace: 'nowrap' },
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
  const { t } = useTranslation('connections');
  const user = useCurrentUser();
  const { data, isLoading } = useConnections();
  const connections = data ?? [];
  const dialogs = useListDialogs<Connection>();
  const [qrId, setQrId] = useState<number | null>(null);
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

  const columns: Column<Connection>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      cell: (c) => (
        <span className={styles.name}>
          {c.name}
          {c.provider === 'sandbox' ? (
            <Badge appearance="tint" color="informative" size="small" className={styles.badge}>
              {t('modal.providers.sandbox')}
            </Badge>
          ) : null}
        </span>
      ),
    },
    {
      id: 'status',
      header: t('columns.status'),
      cell: (c) => (
        <>
          <Tooltip relationship="description" content={t(`statusHint.${c.status}`, { defaultValue: c.status })}>
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
        </>
      ),
    },
    ...(canSession
      ? [
          {
            id: 'session',
            header: t('columns.session'),
            cell: (c: Connection) => (
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
            ),
          },
        ]
      : []),
    { id: 'lastUpdate', header: t('columns.lastUpdate'), secondary: true, cell: (c) => formatLastUpdate(c.updatedAt) },
    {
      id: 'default',
      header: t('columns.default'),
      secondary: true,
      cell: (c) => (c.isDefault ? <Star20Filled aria-label={t('yes')} style={{ color: tokens.colorPaletteGoldForeground2 }} /> : null),
    },
  ];

  return (
    <PageContainer>
      <ListHeader title={t('title')} add={canAdd ? { label: t('add'), onClick: dialogs.openAdd, testId: 'connections-add' } : undefined} />
      <PageContent>
        <ListBody loading={isLoading} empty={connections.length === 0} emptyTitle={t('empty')}>
          <DataTable
            label={t('title')}
            rows={connections}
            columns={columns}
            rowKey={(c) => c.id}
            rowTestId={(c) => `connection-row-${c.id}`}
            actionsHeader={t('columns.actions')}
            // Without the right the column stays (empty), as the table always had it.
            actions={(c) =>
              canEdit ? (
                <div className={styles.actions}>
                  <EditDeleteActions testIdPrefix="connection" id={c.id} onEdit={() => dialogs.openEdit(c)} onDelete={() => dialogs.askDelete(c)} />
                </div>
              ) : null
            }
          />
        </ListBody>
      </PageContent>
      {dialogs.editing ? <ConnectionModal key={dialogs.edited?.id ?? 'new'} connection={dialogs.edited} onClose={dialogs.closeForm} /> : null}
      {qrConnection ? <QrModal connection={qrConnection} onClose={() => setQrId(null)} /> : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(c) => t('confirmDelete.title', { name: c.name })}
        body={t('confirmDelete.body')}
        remove={(c) => connectionsApi.remove(c.id)}
        listKey={CONNECTIONS_KEY}
        deletedMessage={t('toasts.deleted')}
      />
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
