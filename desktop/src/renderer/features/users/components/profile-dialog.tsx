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
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../stores/auth-store';

/**
 * The user menu's "profile": the user's own form (name, email, password, language). The users feature
 * replaces this read-only stand-in with its user modal (PUT /users/{id}).
 */
export default function ProfileDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const user = useCurrentUser();
  return (
    <Dialog open={open} onOpenChange={(_, data) => onOpenChange(data.open)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{tc('layout.profile')}</DialogTitle>
          <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
            <Field label={t('fields.name')}>
              <Input value={user?.name ?? ''} readOnly />
            </Field>
            <Field label={t('fields.email')}>
              <Input value={user?.email ?? ''} readOnly />
            </Field>
            <Field label={t('fields.profile')}>
              <Input value={user?.profile ?? ''} readOnly />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={() => onOpenChange(false)}>
              {tc('actions.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
