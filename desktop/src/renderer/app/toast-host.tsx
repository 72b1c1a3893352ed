import { useEffect } from 'react';
import { Toast, ToastBody, Toaster, ToastTitle, useId, useToastController } from '@fluentui/react-components';
import { subscribeToasts } from '../components/toasts';

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
  return <Toaster toasterId={toasterId} position="top-end" limit={5} />;
}
