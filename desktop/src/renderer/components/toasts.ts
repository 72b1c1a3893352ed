import { TOAST_ERROR_MS } from '@atrium/shared';

export type ToastIntent = 'success' | 'error' | 'warning' | 'info';

export interface ToastMessage {
  id: number;
  intent: ToastIntent;
  message: string;
  title?: string;
  /** Milliseconds before it closes. */
  timeout: number;
}

export interface ToastOptions {
  title?: string;
  timeout?: number;
}

/** How long each kind stays: errors for the catalogue's 2 s (spec 01 section 9), the rest a little longer. */
export const TOAST_TIMEOUTS: Record<ToastIntent, number> = {
  error: TOAST_ERROR_MS,
  success: 3000,
  info: 3000,
  warning: 5000,
};

type Listener = (toast: ToastMessage) => void;

const listeners = new Set<Listener>();
// Toasts raised before the host mounts (e.g. during the session restore) wait for it.
let pending: ToastMessage[] = [];
let seq = 0;

/** The toast host (app/toast-host.tsx) listens here; tests may too. */
export const subscribeToasts = (listener: Listener): (() => void) => {
  listeners.add(listener);
  const queued = pending;
  pending = [];
  queued.forEach(listener);
  return () => {
    listeners.delete(listener);
  };
};

/**
 * Forgets toasts still waiting for a host. For tests: a toast raised after one test's screen went away
 * must not reach the next test's host.
 */
export const dropPendingToasts = (): void => {
  pending = [];
};

const show = (intent: ToastIntent, message: string, options: ToastOptions = {}): ToastMessage => {
  const toast: ToastMessage = {
    id: ++seq,
    intent,
    message,
    title: options.title,
    timeout: options.timeout ?? TOAST_TIMEOUTS[intent],
  };
  if (listeners.size === 0) pending.push(toast);
  else listeners.forEach((listener) => listener(toast));
  return toast;
};

/** Imperative toasts, usable anywhere (event handlers, API code, socket handlers). */
export const toast = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  warning: (message: string, options?: ToastOptions) => show('warning', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
};
