import { useEffect } from 'react';
import { Toast, ToastBody, Toaster, ToastTitle, useId, useToastController } from '@fluentui/react-components';
import { subscribeToasts } from '../components/toasts';

/** The top bar's height plus a small gap. */
export const TOP_BAR_CLEARANCE = 60;

/** Shows the toasts raised anywhere through components/toasts (toast.*, toastError). */
export function ToastHost() {
  const toasterId = useId('app-toaster');
  const { dispatchToast } = useToastController(toasterId);
  useEffect(
    () =>
      subscribeToasts(({ id, intent, title, message, timeout }) => {
        dispatchToast(
          <Toast data-testid="app-toast" data-intent={intent}>
            {title ? (
              <>
                <ToastTitle>{title}</ToastTitle>
                <ToastBody>{message}</ToastBody>
              </>
            ) : (
              <ToastTitle>{message}</ToastTitle>
            )}
          </Toast>,
          { intent, timeout, toastId: `toast-${id}`, pauseOnHover: true, pauseOnWindowBlur: false },
        );
      }),
    [dispatchToast],
  );
  // Below the top bar (52 px), so that a toast does not cover the bells, the theme and the user menu.
  return <Toaster toasterId={toasterId} position="top-end" offset={{ vertical: TOP_BAR_CLEARANCE }} limit={5} />;
}
