import { Button, DialogActions, Spinner } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

export interface SaveActionsProps {
  saving: boolean;
  onCancel: () => void;
  /** Defaults to "Cancel". */
  cancelLabel?: string;
  cancelTestId?: string;
  saveTestId?: string;
  /** A dialog showing what cannot be changed only closes: no save button. */
  readOnly?: boolean;
}

/** A form dialog's buttons: cancel, and save (the form's submit), both held while saving. */
export function SaveActions({ saving, onCancel, cancelLabel, cancelTestId, saveTestId, readOnly }: SaveActionsProps) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button appearance="secondary" disabled={saving} data-testid={cancelTestId} onClick={onCancel}>
        {cancelLabel ?? t('actions.cancel')}
      </Button>
      {readOnly ? null : (
        <Button appearance="primary" type="submit" disabled={saving} icon={saving ? <Spinner size="tiny" /> : undefined} data-testid={saveTestId}>
          {t('actions.save')}
        </Button>
      )}
    </DialogActions>
  );
}
