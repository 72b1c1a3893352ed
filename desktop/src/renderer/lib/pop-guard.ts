/**
 * The browser's back and forward buttons, before the router hears them. BrowserRouter cannot block a
 * navigation, and a `popstate` listener on window runs in the order listeners were added (Chromium calls
 * the router's first even against a capture listener added later), so this one listener is added when
 * the app starts, before the router's, and hands each `popstate` to the page that guards leaving (one at a
 * time: the flow editor with unsaved edits). A guard that takes the event keeps it from the router.
 */
export type PopGuard = (event: PopStateEvent) => boolean;

let guard: PopGuard | null = null;
let installed = false;

/** Adds the listener once; call before the router mounts. */
export const installPopGuard = (): void => {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('popstate', (event) => {
    if (guard?.(event)) event.stopImmediatePropagation();
  });
};

/** Sets (or with null clears) the guard consulted on back and forward. */
export const setPopGuard = (next: PopGuard | null): void => {
  guard = next;
};
