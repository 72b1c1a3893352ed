import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryKey } from '../../api/query';
import { removeRow } from '../../hooks/remove-row';
import { ConfirmationDialog } from '../confirmation-dialog';

export interface DeleteDialogProps<T> {
  /** The record to delete; null: closed. */
  item: T | null;
  onClose: () => void;
  title: (item: T) => ReactNode;
  body?: ReactNode;
  /** The delete call. */
  remove: (item: T) => Promise<unknown>;
  /** The list to reload once deleted (a key prefix). */
  listKey: QueryKey;
  /** The success toast. */
  deletedMessage: string;
}

/**
 * "Delete this?" for a list row: on confirm the delete call, then the list reloads and the success toast
 * shows; a failure is the translated error toast and the list stays as it was.
 */
export function DeleteDialog<T>({ item, onClose, title, body, remove, listKey, deletedMessage }: DeleteDialogProps<T>) {
  const { t } = useTranslation();
  return (
    <ConfirmationDialog
      open={item !== null}
      onOpenChange={(open) => !open && onClose()}
      title={item !== null ? title(item) : undefined}
      confirmLabel={t('actions.delete')}
      destructive
      onConfirm={() => (item !== null ? removeRow(() => remove(item), listKey, deletedMessage) : undefined)}
    >
      {body}
    </ConfirmationDialog>
  );
}
