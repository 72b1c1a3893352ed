import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthStore } from './auth-store.js';
import { startAllSessions } from './boot.js';
import { ChannelManager } from './manager.js';
import { createSandboxProvider } from './sandbox/sandbox.provider.js';
import type { ChannelEvents, ChannelProvider, ChannelSession } from './types.js';
import { forSystem } from '../db/tenant.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../testing/helpers.js';

/** Start-up against the real database: which connections start, and when. */
let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t);
});

afterAll(async () => {
  await t?.stop();
});

const systemEm = () => forSystem(t.app.orm.em);

/** The sandbox provider, recording when each connection's session is started. */
const recordingManager = () => {
  const started: { id: number; at: number }[] = [];
  const sandbox = createSandboxProvider(systemEm);
  const provider: ChannelProvider = {
    name: 'sandbox',
    isPaired: sandbox.isPaired,
    createSession: (options) => {
      const session = sandbox.createSession(options);
      return {
        ...session,
        start: async () => {
          started.push({ id: options.whatsappId, at: Date.now() });
        },
        stop: async () => {},
      } as unknown as ChannelSession;
    },
  };
  const channels = new ChannelManager(
    { sandbox: provider },
    {
      events: () => ({ status: () => {}, qr: () => {} }) as unknown as ChannelEvents,
      auth: (c) => createAuthStore(systemEm, c.companyId, c.id),
      logger: t.app.logger,
    },
  );
  return { channels, started };
};

describe('starting the sessions at boot', () => {
  it('starts only paired connections, one after another, and shows the others DISCONNECTED', async () => {
    const ids: number[] = [];
    for (const name of ['Paired one', 'Paired two', 'Never scanned']) {
      const res = await t.api.post('/whatsapp', { name, provider: 'sandbox' }, a.admin.token);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    for (const id of ids.slice(0, 2)) expect((await t.api.post(`/sandbox/${id}/scan`, {}, a.admin.token)).status).toBe(200);
    // The never-scanned one still shows the QR code it was given.
    expect((await t.api.get(`/whatsapp/${ids[2]}`, a.admin.token)).body.status).toBe('qrcode');

    const { channels, started } = recordingManager();
    const { done } = await startAllSessions(systemEm, channels, t.app.logger, { staggerMs: 200 });
    await done;
    // Only this test's connections: the database may hold the other test's too.
    const own = () => started.filter((s) => ids.includes(s.id));
    await eventually(() => expect(own().map((s) => s.id)).toEqual(ids.slice(0, 2)));
    expect(own()[1]!.at - own()[0]!.at).toBeGreaterThanOrEqual(190);
    expect((await t.api.get(`/whatsapp/${ids[2]}`, a.admin.token)).body).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
  });

  it('gives up the remaining starts once every session is stopped (the server is stopping)', async () => {
    // Two paired connections of its own, whatever else the database holds.
    for (const name of ['Stopped one', 'Stopped two']) {
      const res = await t.api.post('/whatsapp', { name, provider: 'sandbox' }, a.admin.token);
      expect(res.status).toBe(201);
      expect((await t.api.post(`/sandbox/${res.body.id}/scan`, {}, a.admin.token)).status).toBe(200);
    }
    const { channels, started } = recordingManager();
    const { done } = await startAllSessions(systemEm, channels, t.app.logger, { staggerMs: 5_000 });
    await eventually(() => expect(started).toHaveLength(1));
    await channels.stopAll();
    await done;
    expect(started).toHaveLength(1);
  });
});
