import { Suspense, useEffect } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { Outlet } from 'react-router';
import { LoadingScreen } from '../../components/loading-screen';
import { useWindowWidth } from '../../hooks/use-window-width';
import { useAuthStore } from '../../stores/auth-store';
import { DRAWER_OVERLAY_MAX_WIDTH, useUiStore } from '../../stores/ui-store';
import { MenuRail, SideMenu } from './side-menu';
import { TopBar } from './top-bar';
import { useConnectionDownNotice } from './use-connection-warning';

const useStyles = makeStyles({
  root: { display: 'flex', height: '100vh', width: '100%', overflow: 'hidden', backgroundColor: tokens.colorNeutralBackground2 },
  column: { display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0 },
  main: { flex: 1, minHeight: 0, overflow: 'auto', position: 'relative' },
});

/** Inline drawer from 600 px up (collapsing to an icon rail), a temporary overlay below. */
export const drawerTypeFor = (width: number): 'inline' | 'overlay' => (width < DRAWER_OVERLAY_MAX_WIDTH ? 'overlay' : 'inline');

/** The frame of every private page: side menu, top bar, and the page (lazy, code-split) in the middle. */
export function MainLayout() {
  const styles = useStyles();
  const width = useWindowWidth();
  const type = drawerTypeFor(width);
  const open = useUiStore((s) => s.drawerOpen);
  const setOpen = useUiStore((s) => s.setDrawerOpen);
  const toggle = useUiStore((s) => s.toggleDrawer);
  useConnectionDownNotice(useAuthStore((s) => s.user?.profile === 'admin'));

  // Entering overlay mode (a phone-sized window) closes the drawer; it opens on demand.
  useEffect(() => {
    if (type === 'overlay') setOpen(false);
  }, [type, setOpen]);

  return (
    <div className={styles.root} data-drawer={type} data-drawer-open={open}>
      {type === 'inline' && !open ? (
        <MenuRail />
      ) : (
        <SideMenu
          open={open}
          type={type}
          onOpenChange={setOpen}
          onNavigate={type === 'overlay' ? () => setOpen(false) : undefined}
        />
      )}
      <div className={styles.column}>
        <TopBar onToggleMenu={toggle} compact={width < 760} />
        <main className={styles.main}>
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
