import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { queryClient } from '../api/query';
import { FeatureSlotsProvider } from '../components/feature-slots';
import { i18n } from '../i18n';
import { FEATURE_SLOTS } from './feature-slots';
import { themeFor, useThemeMode } from './theme';

/**
 * The toasts' host (Fluent's toaster) comes after the first screen has shown: the login screen does not
 * wait for it, and a toast raised before it mounts waits for it (components/toasts).
 */
const ToastHost = lazy(() => import('./toast-host').then(({ ToastHost }) => ({ default: ToastHost })));

/**
 * Theme (light/dark, following the system until toggled), strings, toasts, the server-data cache (TanStack
 * Query's client) and the feature slots around the app.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const mode = useThemeMode();
  const theme = themeFor(mode);
  const [shown, setShown] = useState(false);
  useEffect(() => setShown(true), []);
  useEffect(() => {
    // The page behind the provider (scroll bounce, overlays) matches the theme too.
    document.documentElement.style.colorScheme = mode;
    document.documentElement.dataset.theme = mode;
    document.body.style.backgroundColor = theme.colorNeutralBackground2;
  }, [mode, theme]);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <FluentProvider theme={theme} style={{ height: '100%', backgroundColor: 'transparent' }}>
          {shown ? (
            <Suspense fallback={null}>
              <ToastHost />
            </Suspense>
          ) : null}
          <FeatureSlotsProvider value={FEATURE_SLOTS}>{children}</FeatureSlotsProvider>
        </FluentProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
