import type { Language, LoginInput, OwnSessionsView } from '@atrium/shared';
import { refreshTokenStore, sessionHints } from '../platform';
import { api, refreshAccessToken } from './client';
import { applySession, endSessionLocally } from './session';
import { loadSocketIo } from './socket';
import type { CompanyPlan, SessionResponse, SessionUser } from './types';

/** Typed calls of spec 01 section 7, Auth (plus the session's company plan and language). */
export const authApi = {
  login: async (input: LoginInput): Promise<SessionResponse> =>
    (await api.post<SessionResponse>('/auth/login', input, { skipSessionHandling: true })).data,
  logout: async (): Promise<void> => {
    await api.delete('/auth/logout', { skipSessionHandling: true });
  },
  me: async (): Promise<SessionUser> => (await api.get<SessionUser>('/auth/me')).data,
  companyPlan: async (companyId: number): Promise<CompanyPlan> =>
    (await api.get<CompanyPlan>(`/companies/listPlan/${companyId}`)).data,
  setLanguage: async (language: Language): Promise<void> => {
    await api.post(`/users/set-language/${language}`);
  },
  /** The user's live sessions (this one marked `current`) and how many the company allows at once. */
  sessions: async (): Promise<OwnSessionsView> => (await api.get<OwnSessionsView>('/auth/sessions')).data,
  endSession: async (id: string): Promise<void> => {
    await api.delete(`/auth/sessions/${id}`);
  },
};

/** Logs in and takes the answer as the session (the guards then send the user to /tickets). */
export const login = async (input: LoginInput): Promise<SessionResponse> => {
  loadSocketIo().catch(() => undefined);
  const data = await authApi.login(input);
  await applySession(data, 'login');
  return data;
};

/** Ends the session on the server (best effort) and on this device. */
export const logout = async (): Promise<void> => {
  try {
    await authApi.logout();
  } catch {
    // Offline or already ended: the local session goes anyway.
  } finally {
    endSessionLocally();
  }
};

/** Whether this device may hold a session: a stored refresh token (desktop), or the session hints (web). */
export const mayHaveSession = async (): Promise<boolean> =>
  refreshTokenStore.inBody() ? (await refreshTokenStore.get()) !== undefined : sessionHints.exists();

/**
 * At start: a silent refresh restores the session the cookie (or the desktop's store) still holds. A
 * device that never logged in (or logged out) goes straight to the login page, without a doomed call.
 * `mayRestore`: mayHaveSession's answer, when the start has already asked.
 */
export const restoreSession = async (mayRestore?: boolean): Promise<boolean> => {
  if (!(mayRestore ?? (await mayHaveSession()))) {
    endSessionLocally();
    return false;
  }
  // The realtime client comes while the session is refreshed, ready when it is.
  loadSocketIo().catch(() => undefined);
  try {
    await refreshAccessToken();
    return true;
  } catch {
    endSessionLocally();
    return false;
  }
};
