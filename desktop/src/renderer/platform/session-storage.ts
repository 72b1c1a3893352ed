import { callDesktop, hasDesktop } from './desktop-bridge';

/**
 * Where the session survives a restart. The browser keeps the refresh token in the httpOnly `jrt`
 * cookie the server sets, out of reach of scripts. The desktop app runs at app://atrium, another
 * origin than the server, so it keeps the token in the OS keychain (through window.desktop) and sends
 * it in the refresh body. The access token lives in memory only.
 */
export const refreshTokenStore = {
  /** True when the refresh token travels in the body (desktop secure store), false for the cookie. */
  inBody: (): boolean => hasDesktop('getRefreshToken') && hasDesktop('setRefreshToken'),
  get: async (): Promise<string | undefined> => (await callDesktop('getRefreshToken')) ?? undefined,
  set: async (token: string | null): Promise<void> => {
    if (token) await callDesktop('setRefreshToken', token);
    else await callDesktop('clearRefreshToken');
  },
};

/** The family's local-storage entries of a session (spec 01 section 4): never the token. */
const SESSION_KEYS = { companyId: 'companyId', userId: 'userId', dueDate: 'dueDate' } as const;

export const sessionHints = {
  save(hints: { companyId: number; userId: number; dueDate: string | null }): void {
    try {
      localStorage.setItem(SESSION_KEYS.companyId, String(hints.companyId));
      localStorage.setItem(SESSION_KEYS.userId, String(hints.userId));
      if (hints.dueDate) localStorage.setItem(SESSION_KEYS.dueDate, hints.dueDate);
      else localStorage.removeItem(SESSION_KEYS.dueDate);
    } catch {
      // Storage may be unavailable (private mode); the session still works in memory.
    }
  },
  /** Whether a session was started on this device and not ended (worth a silent refresh at start). */
  exists(): boolean {
    try {
      return localStorage.getItem(SESSION_KEYS.userId) !== null;
    } catch {
      return true;
    }
  },
  clear(): void {
    try {
      for (const key of Object.values(SESSION_KEYS)) localStorage.removeItem(key);
    } catch {
      // As above.
    }
  },
};
