import { useAuthStore, type SessionOrigin } from '../stores/auth-store';
import { usePreferences } from '../stores/preferences-store';
import { refreshTokenStore, sessionHints } from '../platform';
import type { SessionResponse, SessionUser } from './types';

type EndListener = () => void;
const endListeners = new Set<EndListener>();

/** Runs when the session ends (logout, 401, failed refresh): caches and connections drop their data. */
export const onSessionEnd = (listener: EndListener): (() => void) => {
  endListeners.add(listener);
  return () => {
    endListeners.delete(listener);
  };
};

/** The family's rule: the campaign and flow routes appear when the company has campaigns enabled. */
const applyCampaignsFlag = (user: SessionUser): void => {
  const setting = user.company?.settings?.find((s) => s.key === 'campaignsEnabled');
  if (!setting) return;
  const enabled = setting.value === 'true';
  if (usePreferences.getState().cshow !== enabled) usePreferences.getState().set('cshow', enabled);
};

/** Takes a login or refresh answer as the current session. */
export const applySession = async (response: SessionResponse, origin: SessionOrigin): Promise<void> => {
  const { token, user } = response;
  if (refreshTokenStore.inBody() && response.refreshToken) await refreshTokenStore.set(response.refreshToken);
  sessionHints.save({ companyId: user.companyId, userId: user.id, dueDate: user.company?.dueDate ?? null });
  applyCampaignsFlag(user);
  const state = useAuthStore.getState();
  if (state.status === 'authenticated' && state.user?.id === user.id) {
    // A refresh of the same session: keep where the session came from.
    useAuthStore.setState({ token, user });
  } else {
    state.setSession(token, user, origin);
  }
};

/** Forgets the session on this device (the server side is ended by DELETE /auth/logout, if reachable). */
export const endSessionLocally = (): void => {
  const wasSignedIn = useAuthStore.getState().status !== 'guest';
  useAuthStore.getState().clear();
  sessionHints.clear();
  void refreshTokenStore.set(null);
  if (usePreferences.getState().cshow) usePreferences.getState().set('cshow', false);
  if (wasSignedIn) endListeners.forEach((listener) => listener());
};
