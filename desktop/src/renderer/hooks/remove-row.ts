import { toastError } from '../api/errors';
import { queryClient, type QueryKey } from '../api/query';
import { toast } from '../components/toasts';

/**
 * A list's delete action: the call, then the list reloads and the success toast shows; a failure is the
 * translated error toast and the list stays as it was.
 */
export const removeRow = async (remove: () => Promise<unknown>, list: QueryKey, deleted: string): Promise<void> => {
  try {
    await remove();
    void queryClient.invalidateQueries({ queryKey: list });
    toast.success(deleted);
  } catch (err) {
    toastError(err);
  }
};
