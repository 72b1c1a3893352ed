import { useState } from 'react';
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
  MessageBar,
  MessageBarBody,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkRegular, CopyRegular, KeyRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { useSaving } from '../../../hooks/use-saving';
import { CONNECTIONS_KEY, connectionsApi } from '../api/connections';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  token: { fontFamily: tokens.fontFamilyMonospace, width: '100%' },
});

/** A token just generated, shown this once with a copy button. */
function RevealedToken({ token }: { token: string }) {
  const styles = useStyles();
  const { t } = useTranslation('connections');
  const [copied, setCopied] = useState(false);
  return (
    <div className={styles.root}>
      <MessageBar intent="warning">
        <MessageBarBody>{t('token.onceWarning')}</MessageBarBody>
      </MessageBar>
      <Input
        readOnly
        value={token}
        className={styles.token}
        data-testid="connection-token-value"
        onFocus={(e) => e.currentTarget.select()}
        contentAfter={
          <Button
            appearance="transparent"
            size="small"
            icon={copied ? <CheckmarkRegular /> : <CopyRegular />}
            aria-label={copied ? t('token.copied') : t('token.copy')}
            title={copied ? t('token.copied') : t('token.copy')}
            data-testid="connection-token-copy"
            onClick={() => void navigator.clipboard?.writeText(token).then(() => setCopied(true))}
          />
        }
      />
    </div>
  );
}

/**
 * The connection's messages API token (spec 04 section 14): only whether one is set is known; generating
 * a new one (after a confirmation, it revokes the old) shows it once.
 */
export function ApiTokenField({ connectionId, hasToken }: { connectionId: number; hasToken: boolean }) {
  const styles = useStyles();
  const { t } = useTranslation('connections');
  const [confirming, setConfirming] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const { saving, run } = useSaving();

  const generate = () =>
    run(async () => {
      const updated = await connectionsApi.update(connectionId, { regenerateToken: true });
      setToken(updated.token ?? null);
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
    });

  return (
    <Field label={t('token.label')} hint={token ? undefined : t('token.hint')}>
      <div className={styles.root} data-testid="connection-token">
        {token ? (
          <RevealedToken token={token} />
        ) : (
          <div className={styles.row}>
            <Text data-testid="connection-token-state">{hasToken ? t('token.set') : t('token.none')}</Text>
            <Button icon={<KeyRegular />} disabled={saving} data-testid="connection-token-generate" onClick={() => (hasToken ? setConfirming(true) : void generate())}>
              {hasToken ? t('token.regenerate') : t('token.generate')}
            </Button>
          </div>
        )}
      </div>
      <ConfirmationDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('token.confirmTitle')}
        confirmLabel={t('token.regenerate')}
        destructive
        onConfirm={generate}
      >
        {t('token.confirmBody')}
      </ConfirmationDialog>
    </Field>
  );
}

/** After a connection is created: the token its creation generated, shown once. */
export function CreatedTokenDialog({ token, onClose }: { token: string; onClose: () => void }) {
  const { t } = useTranslation('connections');
  const { t: tc } = useTranslation();
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface data-testid="connection-token-dialog">
        <DialogBody>
          <DialogTitle>{t('token.createdTitle')}</DialogTitle>
          <DialogContent>
            <RevealedToken token={token} />
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" data-testid="connection-token-done" onClick={onClose}>
              {tc('actions.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
