import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { installPopGuard, setPopGuard } from '../../../lib/pop-guard';

// The app installs it at start (app.tsx); here too for an editor rendered under a router of its own (tests).
installPopGuard();

/**
 * Asks before the flow editor is left with unsaved edits. The app runs on BrowserRouter, which cannot
 * block a navigation (only data routers have `useBlocker`, and moving the app to one is a larger change),
 * so this guards each way out itself:
 * - a click on one of the app's links (the side menu, links in the header...: every in-app link is an
 *   `<a href>` whose click the app turns into a client-side navigation) is stopped before the app sees it;
 * - the editor's own buttons call `leave`;
 * - the browser's back and forward buttons: the `popstate` is caught before the router hears it
 *   (lib/pop-guard.ts), the history is stepped back to the editor, and the dialog asks; "Leave" then takes
 *   the same step again, this time for the router;
 * - closing or reloading the tab asks through `beforeunload` (the editor's page).
 * Not guarded: navigations the app makes by itself (opening a notification); the draft keeps the edits then.
 */
export function useLeaveGuard(dirty: boolean) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);
  // Where the app is (the router's location: the address bar may not say it, e.g. under a memory router).
  const location = useLocation();
  const here = useRef('');
  here.current = `${location.pathname}${location.search}${location.hash}`;
  // Back and forward. The router numbers its history entries (`idx` in history.state): the step the
  // browser took is the popped entry's number less the editor's.
  const editorIdx = useRef<number | null>(null);
  const step = useRef<number | null>(null);
  const restoring = useRef(false);
  const passing = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
      const url = new URL(link.getAttribute('href') ?? '', window.location.href);
      if (url.origin !== window.location.origin) return;
      const to = `${url.pathname}${url.search}${url.hash}`;
      if (to === here.current) return;
      // Captured on the document, before the app's own handler turns the click into a navigation.
      event.preventDefault();
      event.stopPropagation();
      step.current = null;
      setPending(to);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [dirty]);

  useEffect(() => {
    const idx = (window.history.state as { idx?: unknown } | null)?.idx;
    editorIdx.current = typeof idx === 'number' ? idx : null;
  }, [location]);
  useEffect(() => {
    if (!dirty) return;
    setPopGuard((event) => {
      if (passing.current) {
        // "Leave" retook the step: the router's to hear it.
        passing.current = false;
        return false;
      }
      if (restoring.current) {
        // The step back to the editor (below) arriving: nothing moved for the router.
        restoring.current = false;
        return true;
      }
      const to = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      const idx = (event.state as { idx?: unknown } | null)?.idx;
      const delta = typeof idx === 'number' && editorIdx.current !== null ? idx - editorIdx.current : null;
      if (delta) {
        restoring.current = true;
        window.history.go(-delta);
      } else {
        // An entry the router did not number: put the editor's address back on top.
        window.history.pushState(window.history.state, '', here.current);
      }
      step.current = delta || null;
      setPending(to);
      return true;
    });
    return () => setPopGuard(null);
  }, [dirty]);

  /** Goes to `to`, asking first when there are unsaved edits. */
  const leave = useCallback(
    (to: string) => {
      step.current = null;
      if (dirty) setPending(to);
      else navigate(to);
    },
    [dirty, navigate],
  );
  const stay = useCallback(() => setPending(null), []);
  const go = useCallback(() => {
    const to = pending;
    const delta = step.current;
    setPending(null);
    step.current = null;
    if (delta) {
      passing.current = true;
      window.history.go(delta);
    } else if (to) navigate(to);
  }, [pending, navigate]);

  return { pending, leave, stay, go };
}

export function LeaveDialog({ open, onStay, onLeave }: { open: boolean; onStay: () => void; onLeave: () => void }) {
  const { t } = useTranslation('flowbuilder');
  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onStay()}>
      <DialogSurface data-testid="flowbuilder-leave-dialog">
        <DialogBody>
          <DialogTitle>{t('leave.title')}</DialogTitle>
          <DialogContent>{t('leave.body')}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" data-testid="flowbuilder-leave-stay" onClick={onStay}>
              {t('leave.stay')}
            </Button>
            <Button appearance="primary" data-testid="flowbuilder-leave-go" onClick={onLeave}>
              {t('leave.go')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
