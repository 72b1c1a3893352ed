import { create } from 'zustand';
import type { SessionUser } from '../api/types';

/** `restoring` while the app start tries a silent refresh: guards wait instead of sending to /login. */
export type AuthStatus = 'restoring' | 'authenticated' | 'guest';

/** How the session came to be: a login on this screen (go to /tickets) or a restore at start. */
export type SessionOrigin = 'login' | 'restore';

export interface AuthState {
  status: AuthStatus;
  /** The access token, in memory only. */
  token: string | null;
  user: SessionUser | null;
  origin: SessionOrigin | null;
  setSession(token: string, user: SessionUser, origin: SessionOrigin): void;
  setToken(token: string): void;
  updateUser(patch: Partial<SessionUser>): void;
  /** Ends the session locally; use api/session's endSessionLocally, which also drops caches. */
  clear(): void;
  setStatus(status: AuthStatus): void;
}

export const useAuthStore = create<AuthState>()((set) => ({
  status: 'restoring',
  token: null,
  user: null,
  origin: null,
  setSession: (token, user, origin) => set({ status: 'authenticated', token, user, origin }),
  setToken: (token) => set({ token }),
  updateUser: (patch) => set((state) => (state.user ? { user: { ...state.user, ...patch } } : {})),
  clear: () => set({ status: 'guest', token: null, user: null, origin: null }),
  setStatus: (status) => set({ status }),
}));

/** The logged-in user, or null. */
export const useCurrentUser = (): SessionUser | null => useAuthStore((s) => s.user);

export const useIsAdmin = (): boolean => useAuthStore((s) => s.user?.profile === 'admin');

/** The company's due date (yyyy-MM-dd) of the session. */
export const useCompanyDueDate = (): string | null => useAuthStore((s) => s.user?.company?.dueDate ?? null);
