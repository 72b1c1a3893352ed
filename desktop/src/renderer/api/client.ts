import axios, { isAxiosError, type InternalAxiosRequestConfig } from 'axios';
import { useAuthStore } from '../stores/auth-store';
import { refreshTokenStore } from '../platform';
import { applySession, endSessionLocally } from './session';
import type { SessionResponse } from './types';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The auth calls themselves: no token refresh on 403 and no logout on 401. */
    skipSessionHandling?: boolean;
  }
}

interface SessionConfig extends InternalAxiosRequestConfig {
  /** The session's bearer token was put on this request (not one the caller chose). */
  _sessionAuth?: boolean;
  /** The token it carried, to tell whether another request has refreshed since. */
  _token?: string;
  _retried?: boolean;
}

let serverUrl = '';

/**
 * The server the app talks to: the desktop's stored address, or '' in the browser (same origin: the
 * server serves this app). Set once at start (main.tsx).
 */
export const setServerUrl = (url: string): void => {
  serverUrl = url.replace(/\/+$/, '');
};
export const getServerUrl = (): string => serverUrl;

/** A 403 with one of these codes is a refusal, not a stale token: refreshing would not change it. */
const PERMISSION_CODES = new Set(['ERR_NO_PERMISSION', 'ERR_NO_SUPER', 'ERR_PLAN_FEATURE_DISABLED', 'ERR_USER_CREATION_DISABLED']);

/** The app's HTTP client: every feature's calls go through it. */
export const api = axios.create({ withCredentials: true });

// The refresh call goes around the interceptors: its own failure must not trigger another refresh.
const bare = axios.create({ withCredentials: true });

api.interceptors.request.use((config: SessionConfig) => {
  if (config.baseURL === undefined && serverUrl) config.baseURL = serverUrl;
  const token = useAuthStore.getState().token;
  if (token && !config.headers.has('Authorization')) {
    config.headers.set('Authorization', `Bearer ${token}`);
    config._sessionAuth = true;
    config._token = token;
  }
  return config;
});

/** Serialises refreshes across browser tabs: the refresh token rotates, so two tabs must not race. */
const acrossTabs = <T>(work: () => Promise<T>): Promise<T> => {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks?.request ? (locks.request('atrium-token-refresh', work) as Promise<T>) : work();
};

let inflight: Promise<string> | null = null;

/**
 * Gets a new access token (POST /auth/refresh_token). The desktop sends its stored refresh token in the
 * body; the browser relies on the httpOnly `jrt` cookie. Concurrent callers share one request.
 */
export const refreshAccessToken = (): Promise<string> => {
  inflight ??= acrossTabs(async () => {
    const body = refreshTokenStore.inBody() ? { refreshToken: await refreshTokenStore.get() } : {};
    const { data } = await bare.post<SessionResponse>('/auth/refresh_token', body, {
      baseURL: serverUrl || undefined,
    });
    await applySession(data, 'restore');
    return data.token;
  }).finally(() => {
    inflight = null;
  });
  return inflight;
};

api.interceptors.response.use(undefined, async (error: unknown) => {
  if (!isAxiosError(error) || !error.config) throw error;
  const config = error.config as SessionConfig;
  if (config.skipSessionHandling || !config._sessionAuth) throw error;
  const status = error.response?.status;
  const code = (error.response?.data as { error?: unknown } | undefined)?.error;

  // Spec 01 section 4: a 403 refreshes the token once and retries.
  if (status === 403 && !config._retried && !(typeof code === 'string' && PERMISSION_CODES.has(code))) {
    config._retried = true;
    const current = useAuthStore.getState().token;
    let token: string;
    if (current && current !== config._token) {
      // Another request refreshed while this one was out: use its token.
      token = current;
    } else {
      try {
        token = await refreshAccessToken();
      } catch {
        endSessionLocally();
        throw error;
      }
    }
    config.headers.set('Authorization', `Bearer ${token}`);
    config._token = token;
    return api.request(config);
  }
  if (status === 401) endSessionLocally();
  throw error;
});
