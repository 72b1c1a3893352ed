import { useCallback, useState } from 'react';
import { toastError } from '../api/errors';

/**
 * A save in progress, for forms and dialogs: `saving` while `run`'s action is awaited (buttons disable,
 * the spinner shows); a failure becomes the translated error toast.
 */
export function useSaving() {
  const [saving, setSaving] = useState(false);
  const run = useCallback(async (action: () => Promise<void>) => {
    setSaving(true);
    try {
      await action();
    } catch (err) {
      toastError(err);
    } finally {
      setSaving(false);
    }
  }, []);
  return { saving, run };
}
