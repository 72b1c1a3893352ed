import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { mayHaveSession, restoreSession } from './api/auth';
import { setServerUrl } from './api/client';
import { App } from './app/app';
import { preloadPrivatePageAt, publicPageAt } from './app/routes';
import { initI18n } from './i18n';
import { loadPreferences, requestNotificationPermission, unlockSoundOnFirstGesture } from './platform';
import { usePreferences } from './stores/preferences-store';

// Whether a session may be restored is known before the first render: a guest gets the login form in the
// first render instead of a spinner first.
const [preferences, mayRestore] = await Promise.all([loadPreferences(), mayHaveSession()]);
usePreferences.getState().hydrate(preferences);
// The desktop's stored server; in the browser the same origin (or VITE_SERVER_URL for `vite` dev).
setServerUrl(preferences.serverUrl || import.meta.env.VITE_SERVER_URL || '');
// The chosen language's common strings before the first render; a public page's chunk and strings (the
// login screen's) fetched in the same round, and awaited too, so the page renders at once (routes.tsx).
const firstPage = publicPageAt(window.location.pathname);
const stringsReady = initI18n(preferences.language, firstPage?.namespace ? [firstPage.namespace] : []);
// A failure shows when the page renders (its lazy import fails the same way).
const pageReady = firstPage?.preload().catch(() => undefined);
// A stored session is refreshed beside the strings, not after the first render; its layout and page
// (chunks and strings) come meanwhile, so they show as soon as the session is back.
const restored = restoreSession(mayRestore);
if (mayRestore && !firstPage) preloadPrivatePageAt(window.location.pathname, restored).catch(() => undefined);
if (!mayRestore) await restored;
await Promise.all([stringsReady, pageReady]);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void requestNotificationPermission();
unlockSoundOnFirstGesture();
