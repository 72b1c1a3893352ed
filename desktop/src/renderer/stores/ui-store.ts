import { create } from 'zustand';

/** Widths of spec 01 section 2: the drawer opens by default above 1200 px and overlays below 600 px. */
export const DRAWER_OPEN_MIN_WIDTH = 1200;
export const DRAWER_OVERLAY_MAX_WIDTH = 600;

const initialWidth = (): number => (typeof window === 'undefined' ? 1280 : window.innerWidth);

/** Whether the drawer starts open at this window width. */
export const defaultDrawerOpen = (width: number): boolean => width > DRAWER_OPEN_MIN_WIDTH;

export interface UiState {
  drawerOpen: boolean;
  profileOpen: boolean;
  setDrawerOpen(open: boolean): void;
  toggleDrawer(): void;
  setProfileOpen(open: boolean): void;
}

export const useUiStore = create<UiState>()((set) => ({
  drawerOpen: defaultDrawerOpen(initialWidth()),
  profileOpen: false,
  setDrawerOpen: (drawerOpen) => set({ drawerOpen }),
  toggleDrawer: () => set((s) => ({ drawerOpen: !s.drawerOpen })),
  setProfileOpen: (profileOpen) => set({ profileOpen }),
}));
