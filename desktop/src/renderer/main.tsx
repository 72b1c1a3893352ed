import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { restoreSession } from './api/auth';
import { setServerUrl } from './api/client';
import { App } from './app/app';
import { initI18n } from './i18n';
import { loadPreferences, requestNotificationPermission, unlockSoundOnFirstGesture } from './platform';
import { usePreferences } from './stores/preferences-store';

const preferences = await loadPreferences();
usePreferences.getState().hydrate(preferences);
// The desktop's stored server; in the browser the same origin (or VITE_SERVER_URL for `vite` dev).
setServerUrl(preferences.serverUrl || import.meta.env.VITE_SERVER_URL || '');
// The chosen language's common strings before the first render; the page's own come with its chunk.
await initI18n(preferences.language);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

void restoreSession();
void requestNotificationPermission();
unlockSoundOnFirstGesture();
