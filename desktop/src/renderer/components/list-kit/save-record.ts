import { queryClient, type QueryKey } from '../../api/query';
import { toast } from '../toasts';

/** The create and update calls of a list's records (e.g. tagsApi). */
export interface SaveRecordApi<C, U, R> {
  create: (input: C) => Promise<R>;
  update: (id: number, input: U) => Promise<R>;
}

/**
 * The usual save of a list page's dialog (a FormDialog's `onSubmit`): updates the record being edited or
 * creates one, reloads the lists under `listKey` and shows the saved toast. Answers the saved record.
 * The data is what the dialog's schema parsed: the create or the update schema, as the dialog chose.
 */
export const saveRecord = async <C, U, R>(
  api: SaveRecordApi<C, U, R>,
  editedId: number | undefined,
  data: C | U,
  { listKey, savedMessage }: { listKey: QueryKey; savedMessage: string },
): Promise<R> => {
  const saved = editedId === undefined ? await api.create(data as C) : await api.update(editedId, data as U);
  void queryClient.invalidateQueries({ queryKey: listKey });
  toast.success(savedMessage);
  return saved;
};
