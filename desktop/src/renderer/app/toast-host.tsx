import { useEffect } from 'react';
import { Toast, ToastBody, Toaster, ToastTitle, useId, useToastController } from '@fluentui/react-components';
import { subscribeToasts } from '../components/toasts';

/** The gap between the window's bottom-right corner and the toasts. */
const EDGE_GAP = 16;
/** Above the conversation's message box and send button (about 64 px tall). */
const BOTTOM_CLEARANCE = 80;

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
  // In the bottom-right corner: at the top they covered the bells and user menu, and below the top bar
  // the list pages' Add and search (issue 24); raised above the conversation's send button.
  return <Toaster toasterId={toasterId} position="bottom-end" offset={{ vertical: BOTTOM_CLEARANCE, horizontal: EDGE_GAP }} limit={5} />;
}
