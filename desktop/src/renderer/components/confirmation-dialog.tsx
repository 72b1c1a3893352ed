import { useState, type ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

export interface ConfirmationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title?: ReactNode;
  children?: ReactNode;
  confirmLabel?: ReactNode;
  /** Runs on confirm; the dialog waits for it and closes when it resolves. */
  onConfirm: () => unknown | Promise<unknown>;
  /** Red confirm button (deletions). */
  destructive?: boolean;
}

/** "Are you sure?" before deleting or closing something. */
export function ConfirmationDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  onConfirm,
  destructive,
}: ConfirmationDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => !busy && onOpenChange(data.open)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{title ?? t('confirm.title')}</DialogTitle>
          {children ? <DialogContent>{children}</DialogContent> : null}
          <DialogActions>
            <Button appearance="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
              {t('actions.cancel')}
            </Button>
            <Button
              appearance="primary"
              disabled={busy}
              onClick={() => void confirm()}
              icon={busy ? <Spinner size="tiny" /> : undefined}
              style={destructive ? { backgroundColor: tokens.colorPaletteRedBackground3, color: tokens.colorNeutralForegroundOnBrand } : undefined}
            >
              {confirmLabel ?? t('actions.confirm')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
