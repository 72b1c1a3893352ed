// Test set-up for renderer component tests (happy-dom).
import { cleanup, configure } from '@testing-library/react';
import { notifyManager } from '@tanstack/react-query';
import { afterEach, beforeEach } from 'vitest';
import { api, setServerUrl } from '../api/client';
import { queryClient, resetQueryCache } from '../api/query';
import { realtime } from '../api/socket';
import { dropPendingToasts } from '../components/toasts';
import { LANGUAGES } from '@atrium/shared';
import { i18n, initI18n, namespaces } from '../i18n';
import { DEFAULT_PREFERENCES } from '../platform';
import { useAuthStore } from '../stores/auth-store';
import { usePreferences } from '../stores/preferences-store';
import { useUiStore } from '../stores/ui-store';

await initI18n('en');
// Every namespace in every language at hand, so components render their strings at once in tests.
await i18n.loadNamespaces(namespaces);
await i18n.loadLanguages([...LANGUAGES]);
// TanStack Query tells components about cache changes on a later tick; here it does so at once, so a test
// sees a realtime patch or an invalidation's answer on screen as soon as the `act()` around it ends.
notifyManager.setScheduler((callback) => callback());
// Lazy pages and Fluent's motion take a moment on a busy 2-core runner.
configure({ asyncUtilTimeout: 20000 });

/**
 * happy-dom's Web Animations reject `finished` when an animation is cancelled, which Fluent's motion
 * does on every unmount, and never finish on their own. This stand-in finishes at once (calling the
 * `onfinish` Fluent sets), so enter and exit transitions complete as they would in a browser.
 */
Element.prototype.animate = function animate() {
  let finished: (() => void) | null = null;
  const animation = {
    playState: 'finished',
    currentTime: 0,
    playbackRate: 1,
    finished: Promise.resolve(),
    oncancel: null,
    get onfinish() {
      return finished;
    },
    set onfinish(handler: (() => void) | null) {
      finished = handler;
      if (handler) setTimeout(handler, 0);
    },
    cancel() {},
    finish() {},
    play() {},
    pause() {},
    reverse() {},
    persist() {},
    commitStyles() {},
    addEventListener() {},
    removeEventListener() {},
  };
  return animation as unknown as Animation;
};

/**
 * happy-dom has no layout: every box, <body> included, measures 0×0. Tabster (Fluent's focus manager)
 * counts nothing as focusable inside a zero-sized body, so an opening dialog focused its surface instead
 * of its first control, and when that focus came before Tabster registered the dialog (timing on a
 * loaded runner) the dialog was never activated and Tabster hid it with aria-hidden. In a browser the
 * body fills the viewport; it does here too.
 */
HTMLBodyElement.prototype.getBoundingClientRect = function getBoundingClientRect() {
  const { innerWidth: width, innerHeight: height } = window;
  return { x: 0, y: 0, top: 0, left: 0, right: width, bottom: height, width, height, toJSON: () => ({}) } as DOMRect;
};

const defaultAdapter = api.defaults.adapter;

beforeEach(async () => {
  localStorage.clear();
  useAuthStore.setState({ status: 'guest', token: null, user: null, origin: null });
  usePreferences.setState({ ...DEFAULT_PREFERENCES, loaded: true });
  useUiStore.setState({ drawerOpen: true, profileOpen: false });
  resetQueryCache();
  queryClient.clear();
  dropPendingToasts();
  api.defaults.adapter = defaultAdapter;
  setServerUrl('');
  delete (globalThis as { desktop?: unknown }).desktop;
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

afterEach(() => {
  cleanup();
  realtime.disconnect();
});
