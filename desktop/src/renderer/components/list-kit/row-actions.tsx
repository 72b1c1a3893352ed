import { Delete20Regular, Edit20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { RowAction } from '../row-action';

export interface EditDeleteActionsProps {
  /** Absent: no edit button (e.g. the user may not change the record). */
  onEdit?: () => void;
  /** Absent: no delete button. */
  onDelete?: () => void;
  /** Test ids become `{testIdPrefix}-edit-{id}` and `{testIdPrefix}-delete-{id}`. */
  testIdPrefix?: string;
  id?: string | number;
}

/** A row's edit and delete icon buttons, named by their tooltips. */
export function EditDeleteActions({ onEdit, onDelete, testIdPrefix, id }: EditDeleteActionsProps) {
  const { t } = useTranslation();
  const testId = (action: string) => (testIdPrefix ? `${testIdPrefix}-${action}${id === undefined ? '' : `-${id}`}` : undefined);
  return (
    <>
      {onEdit ? <RowAction label={t('actions.edit')} icon={<Edit20Regular />} testId={testId('edit')} onClick={onEdit} /> : null}
      {onDelete ? <RowAction label={t('actions.delete')} icon={<Delete20Regular />} testId={testId('delete')} onClick={onDelete} /> : null}
    </>
  );
}
