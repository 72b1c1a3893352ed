import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Input, Text } from '@fluentui/react-components';
import { Copy20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/toasts';

/**
 * A webhook's signing secret, shown once after it is issued (the server keeps it sealed and never answers
 * it again): the receiver needs it to check the Standard Webhooks signature.
 */
export function SigningSecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation('queue-integration');
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    toast.success(t('signingSecret.copied'));
  };
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ maxWidth: 560 }} data-testid="queue-integration-signing-secret">
        <DialogBody>
          <DialogTitle>{t('signingSecret.title')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
            <Text>{t('signingSecret.body')}</Text>
            <Input readOnly value={secret} data-testid="queue-integration-signing-secret-value" onFocus={(e) => e.target.select()} />
          </DialogContent>
          <DialogActions>
            <Button icon={<Copy20Regular />} onClick={() => void copy()}>
              {t('signingSecret.copy')}
            </Button>
            <Button appearance="primary" onClick={onClose}>
              {t('actions.close', { ns: 'common' })}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
