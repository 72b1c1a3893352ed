import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { restoreSession } from './api/auth';
import { setServerUrl } from './api/client';
import { App } from './app/app';
import { publicPageAt } from './app/routes';
import { initI18n } from './i18n';
import { loadPreferences, requestNotificationPermission, unlockSoundOnFirstGesture } from './platform';
import { usePreferences } from './stores/preferences-store';

const preferences = await loadPreferences();
usePreferences.getState().hydrate(preferences);
// The desktop's stored server; in the browser the same origin (or VITE_SERVER_URL for `vite` dev).
setServerUrl(preferences.serverUrl || import.meta.env.VITE_SERVER_URL || '');
// The chosen language's common strings before the first render; a public page's chunk and strings (the
// login screen's) fetched in the same round.
const firstPage = publicPageAt(window.location.pathname);
const stringsReady = initI18n(preferences.language, firstPage?.namespace ? [firstPage.namespace] : []);
// A failure shows when the page renders (its lazy import fails the same way).
firstPage?.preload().catch(() => undefined);
await stringsReady;

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void restoreSession();
void requestNotificationPermission();
unlockSoundOnFirstGesture();
