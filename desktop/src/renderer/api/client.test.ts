import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { startTestServer, setWindowUrl, type TestRequest, type TestServer } from '../test/http-server';
import { login, restoreSession } from './auth';
import { api, setServerUrl } from './client';

/**
 * The server's side of the session, as the real one behaves: an access token that goes stale, a refresh
 * token in the httpOnly `jrt` cookie (web) or in the body (desktop), rotated on every refresh.
 */
const state = {
  validToken: 'access-1',
  refreshToken: 'refresh-1',
  refreshes: 0,
  refreshFails: false,
  /** The refresh answers a token the API still refuses (to prove there is no second refresh). */
  refreshUseless: false,
  seq: 1,
};

const user = { id: 7, name: 'Ana', email: 'ana@example.com', profile: 'admin', super: false, companyId: 3, queues: [], company: { id: 3, name: 'Acme', dueDate: '2099-12-31', settings: [] } };

const cookieOf = (req: TestRequest, name: string) =>
  String(req.headers.cookie ?? '')
    .split(/;\s*/)
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

const issue = () => {
  state.seq += 1;
  state.refreshToken = `refresh-${state.seq}`;
  if (!state.refreshUseless) state.validToken = `access-${state.seq}`;
  return {
    status: 200,
    body: { token: `access-${state.seq}`, refreshToken: state.refreshToken, user },
    headers: { 'set-cookie': `jrt=${state.refreshToken}; Path=/auth; HttpOnly; SameSite=Lax` },
  };
};

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((req) => {
    const auth = req.headers.authorization;
    switch (`${req.method} ${req.path}`) {
      case 'POST /auth/login':
        return issue();
      case 'POST /auth/refresh_token': {
        state.refreshes += 1;
        const presented = (req.body as { refreshToken?: string } | undefined)?.refreshToken ?? cookieOf(req, 'jrt');
        if (state.refreshFails || presented !== state.refreshToken) {
          return { status: 401, body: { error: 'ERR_INVALID_REFRESH_TOKEN' }, delay: 30 };
        }
        return { ...issue(), delay: 60 };
      }
      case 'GET /data':
        if (!auth) return { status: 401, body: { error: 'ERR_SESSION_EXPIRED' } };
        if (auth !== `Bearer ${state.validToken}`) return { status: 403, body: { error: 'ERR_INVALID_TOKEN' } };
        return { body: { ok: true, token: auth.slice(7) } };
      case 'GET /forbidden':
        return { status: 403, body: { error: 'ERR_NO_PERMISSION' } };
      case 'GET /session-gone':
        return { status: 401, body: { error: 'ERR_SESSION_EXPIRED' } };
      default:
        return { status: 404, body: { error: 'ERR_NOT_FOUND' } };
    }
  });
  setWindowUrl(`${server.url}/tickets`);
});

afterAll(async () => {
  await server.close();
});

const refreshCalls = () => server.requests.filter((r) => r.path === '/auth/refresh_token');

beforeEach(async () => {
  Object.assign(state, { refreshes: 0, refreshFails: false, refreshUseless: false });
  server.requests.length = 0;
  setServerUrl('');
  await login({ email: 'ana@example.com', password: 'x' });
  server.requests.length = 0;
});

/** The server stops accepting the token the client holds (it expired). */
const expireAccessToken = () => {
  state.validToken = 'access-rotated-by-time';
};

describe('API client session handling (web: refresh token in the httpOnly cookie)', () => {
  it('sends the bearer token', async () => {
    const res = await api.get('/data');
    expect(res.data).toEqual({ ok: true, token: useAuthStore.getState().token });
  });

  it('refreshes once on a 403 and retries with the new token', async () => {
    const before = useAuthStore.getState().token;
    expireAccessToken();
    const res = await api.get('/data');
    expect(res.status).toBe(200);
    expect(refreshCalls()).toHaveLength(1);
    // The refresh carried the cookie the login set, and no body token.
    expect(cookieOf(refreshCalls()[0], 'jrt')).toBeDefined();
    expect(refreshCalls()[0].body).toEqual({});
    const after = useAuthStore.getState().token;
    expect(after).not.toBe(before);
    expect(res.data.token).toBe(after);
    expect(server.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? ''}`)).toEqual([
      `GET /data Bearer ${before}`,
      'POST /auth/refresh_token ',
      `GET /data Bearer ${after}`,
    ]);
  });

  it('shares one refresh between concurrent 403s', async () => {
    expireAccessToken();
    const results = await Promise.all(Array.from({ length: 6 }, () => api.get('/data')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(refreshCalls()).toHaveLength(1);
    expect(new Set(results.map((r) => r.data.token))).toEqual(new Set([useAuthStore.getState().token]));
  });

  it('does not refresh twice for one request: a second 403 is the caller’s error', async () => {
    expireAccessToken();
    state.refreshUseless = true;
    await expect(api.get('/data')).rejects.toMatchObject({ response: { status: 403 } });
    expect(refreshCalls()).toHaveLength(1);
    expect(server.requests.filter((r) => r.path === '/data')).toHaveLength(2);
    expect(useAuthStore.getState().status).toBe('authenticated');
  });

  it('logs out when the refresh fails', async () => {
    expireAccessToken();
    state.refreshFails = true;
    await expect(api.get('/data')).rejects.toMatchObject({ response: { status: 403 } });
    expect(refreshCalls()).toHaveLength(1);
    expect(useAuthStore.getState()).toMatchObject({ status: 'guest', token: null, user: null });
  });

  it('logs out on a 401 without trying to refresh', async () => {
    await expect(api.get('/session-gone')).rejects.toMatchObject({ response: { status: 401 } });
    expect(refreshCalls()).toHaveLength(0);
    expect(useAuthStore.getState().status).toBe('guest');
  });

  it('does not refresh on a permission refusal', async () => {
    await expect(api.get('/forbidden')).rejects.toMatchObject({ response: { status: 403 } });
    expect(refreshCalls()).toHaveLength(0);
    expect(useAuthStore.getState().status).toBe('authenticated');
  });

  it('a guest’s 401 triggers no refresh', async () => {
    useAuthStore.getState().clear();
    server.requests.length = 0;
    await expect(api.get('/data')).rejects.toMatchObject({ response: { status: 401 } });
    expect(refreshCalls()).toHaveLength(0);
  });

  it('restores the session at start from the cookie alone', async () => {
    useAuthStore.setState({ status: 'restoring', token: null, user: null, origin: null });
    expect(await restoreSession()).toBe(true);
    expect(useAuthStore.getState()).toMatchObject({ status: 'authenticated', origin: 'restore', user: { id: 7 } });
    expect((await api.get('/data')).status).toBe(200);
  });

  it('does not even ask when this device has no session to restore', async () => {
    useAuthStore.setState({ status: 'restoring', token: null, user: null, origin: null });
    localStorage.clear();
    expect(await restoreSession()).toBe(false);
    expect(useAuthStore.getState().status).toBe('guest');
    expect(refreshCalls()).toHaveLength(0);
  });

  it('ends up a guest when the server refuses the refresh', async () => {
    useAuthStore.setState({ status: 'restoring', token: null, user: null, origin: null });
    state.refreshFails = true;
    expect(await restoreSession()).toBe(false);
    expect(useAuthStore.getState().status).toBe('guest');
  });
});

describe('API client session handling (desktop: refresh token in the secure store)', () => {
  let stored: string | null = null;

  beforeEach(async () => {
    stored = null;
    (globalThis as { desktop?: unknown }).desktop = {
      getServerUrl: async () => server.url,
      setServerUrl: async () => undefined,
      getVersion: async () => '8.0.1',
      getRefreshToken: async () => stored,
      setRefreshToken: async (token: string) => {
        stored = token;
      },
      clearRefreshToken: async () => {
        stored = null;
      },
    };
    setServerUrl(server.url);
    await login({ email: 'ana@example.com', password: 'x' });
    server.requests.length = 0;
  });

  it('keeps the login’s refresh token and sends it in the refresh body, then keeps the rotated one', async () => {
    const first = stored;
    expect(first).toBe(state.refreshToken);
    expireAccessToken();
    expect((await api.get('/data')).status).toBe(200);
    expect(refreshCalls()).toHaveLength(1);
    expect(refreshCalls()[0].body).toEqual({ refreshToken: first });
    expect(stored).toBe(state.refreshToken);
    expect(stored).not.toBe(first);
  });

  it('forgets the stored refresh token when the session ends', async () => {
    await expect(api.get('/session-gone')).rejects.toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stored).toBeNull();
  });
});
