import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

/**
 * Asks before the flow editor is left with unsaved edits. The app runs on BrowserRouter, which cannot
 * block a navigation (only data routers have `useBlocker`), so this guards the ways the app itself leaves
 * the page: a click on one of its links (the side menu, links in the header...: every in-app link is an
 * `<a href>` whose click the app turns into a client-side navigation) is stopped before the app sees it,
 * and the editor's own buttons call `leave`. Not guarded: the browser's back and forward buttons and
 * navigations the app makes by itself (opening a notification); the draft keeps the edits in those cases,
 * and closing or reloading the tab asks through `beforeunload`.
 */
export function useLeaveGuard(dirty: boolean) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);
  // Where the app is (the router's location: the address bar may not say it, e.g. under a memory router).
  const location = useLocation();
  const here = useRef('');
  here.current = `${location.pathname}${location.search}${location.hash}`;

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
      setPending(to);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [dirty]);

  /** Goes to `to`, asking first when there are unsaved edits. */
  const leave = useCallback((to: string) => (dirty ? setPending(to) : navigate(to)), [dirty, navigate]);
  const stay = useCallback(() => setPending(null), []);
  const go = useCallback(() => {
    const to = pending;
    setPending(null);
    if (to) navigate(to);
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
