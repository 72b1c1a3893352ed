import { useEffect } from 'react';
import type { AuthEventPayload, SettingsEventPayload, UserEventPayload } from '@atrium/shared';
import { refreshAccessToken, getServerUrl } from '../api/client';
import { companyPlanKey } from '../api/company';
import { queryClient } from '../api/query';
import { endSessionLocally } from '../api/session';
import { realtime, REALTIME_CONNECTED, useRealtimeEvent } from '../api/socket';
import type { SessionUser } from '../api/types';
import { toast } from '../components/toasts';
import { i18n } from '../i18n';
import { reloadApp } from '../platform/navigation';
import { useAuthStore } from '../stores/auth-store';
import { usePreferences } from '../stores/preferences-store';

/** The pause between "your account was accessed elsewhere" and the logout (spec 01 section 4). */
export const OTHER_SESSION_LOGOUT_MS = 1000;

/**
 * Keeps the socket in step with the session (connect on login, new token after a refresh, close on
 * logout) and handles the session-wide events: another login of this user, company settings, own user.
 */
export function RealtimeSession() {
  const status = useAuthStore((s) => s.status);
  const token = useAuthStore((s) => s.token);
  const userId = useAuthStore((s) => s.user?.id);
  const companyId = useAuthStore((s) => s.user?.companyId);

  useEffect(() => {
    if (status !== 'authenticated' || !userId || !companyId) return;
    realtime.connect({
      url: getServerUrl(),
      token: useAuthStore.getState().token ?? '',
      companyId,
      userId,
      renewToken: async () => {
        try {
          return await refreshAccessToken();
        } catch {
          endSessionLocally();
          return null;
        }
      },
    });
    return () => realtime.disconnect();
  }, [status, userId, companyId]);

  useEffect(() => {
    if (token) realtime.updateToken(token);
  }, [token]);

  // Connected (after a reload, a network drop or a server restart): the events of the time before the
  // socket listened are lost, so the data on screen is read again once its rooms are joined.
  useEffect(() => realtime.on(REALTIME_CONNECTED, () => void queryClient.invalidateQueries({ refetchType: 'active' })), []);

  useRealtimeEvent<AuthEventPayload>('auth', (payload) => {
    if (payload?.user?.id !== useAuthStore.getState().user?.id) return;
    realtime.markClosing();
    toast.error(i18n.t('session.otherComputer', { ns: 'common' }));
    setTimeout(() => {
      endSessionLocally();
      reloadApp('/login');
    }, OTHER_SESSION_LOGOUT_MS);
  });

  useRealtimeEvent<SettingsEventPayload>('settings', (payload) => {
    if (payload?.setting?.key === 'campaignsEnabled') usePreferences.getState().set('cshow', payload.setting.value === 'true');
  });

  useRealtimeEvent<UserEventPayload>('user', (payload) => {
    const me = useAuthStore.getState().user;
    const changed = payload?.user as Partial<SessionUser> | undefined;
    if (payload?.action === 'update' && me && changed?.id === me.id) {
      const { company: _company, ...fields } = changed;
      useAuthStore.getState().updateUser(fields);
    }
  });

  useRealtimeEvent('company', () => void queryClient.invalidateQueries({ queryKey: companyPlanKey(companyId) }));

  return null;
}
