import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../db/tenant.js';
import { ChannelAuthKey } from '../modules/connections/whatsapp.entity.js';
import { connectSandbox, customerSays, delivered, outbox, outboxOf, ticketOf } from '../../testing/conversation.js';
import { createTenant, createTestDatabase, eventually, startTestApp, SUPER, type Tenant, type TestApp } from '../../testing/helpers.js';
import { createSandboxProvider, SandboxSession } from './sandbox/sandbox.provider.js';
import type { ChannelProvider } from './types.js';

/**
 * Two server processes (two real apps) on one database: A runs the sandbox connections (holds their
 * leases), the agents' requests go to B. What needs the live session is done by A on B's behalf, answered
 * through PostgreSQL; what nobody answers fails clearly.
 */
const SECRETS = { JWT_SECRET: 'owner-test-jwt-secret-0123456789abcdef', JWT_REFRESH_SECRET: 'owner-test-refresh-secret-0123456789abcdef' };
/**
 * Long enough that a renewal is never late by chance on a busy machine (with 1.5 s, a stalled round let the
 * lease lapse and another process take the connection in the middle of a test); the test of a takeover
 * makes the lease run out itself.
 */
const LEASE = { ttlMs: 30_000, renewMs: 150 };

type Label = 'A' | 'B' | 'C';
/** Each logout of a sandbox session, by the app whose session it was. */
const happenings = new EventEmitter();
const loggingOut = (label: Label, em: () => EntityManager): ChannelProvider => {
  const inner = createSandboxProvider(em);
  return {
    ...inner,
    createSession(options) {
      const session = inner.createSession(options);
      const logout = session.logout.bind(session);
      session.logout = async () => {
        try {
          await logout();
        } finally {
          happenings.emit('logout', label, options.whatsappId);
        }
      };
      return session;
    },
  };
};
const loggedOut = (label: Label, whatsappId: number) =>
  new Promise<void>((resolve) => {
    const listener = (l: Label, id: number) => {
      if (l !== label || id !== whatsappId) return;
      happenings.off('logout', listener);
      resolve();
    };
    happenings.on('logout', listener);
  });

let db: { url: string; drop: () => Promise<void> };
const apps: Partial<Record<Label, TestApp>> = {};
const start = async (label: Label, env: Record<string, string> = {}) => {
  const self: { app?: TestApp } = {};
  const app = await startTestApp(
    { ...SECRETS, ...env },
    {
      providers: { sandbox: loggingOut(label, () => forSystem(self.app!.app.orm.em)) },
      leases: { ...LEASE, owner: `owner-test-${label}` },
      sharedDatabaseUrl: db.url,
    },
  );
  self.app = app;
  apps[label] = app;
  return app;
};
const A = () => apps.A!;
const B = () => apps.B!;
const em = () => forSystem(A().app.orm.em.fork());
const sql = <T = any>(query: string, params: unknown[] = []) => em().execute<T[]>(query, params);

let tenant: Tenant;
let wa: { id: number; number: string };
const phoneOn = (label: Label, whatsappId = wa.id) => apps[label]!.app.channels.find(whatsappId) as SandboxSession | undefined;

/** A customer's conversation on the connection (played through `via`), accepted by the admin: its ticket. */
const openConversation = async (from: string, body = 'Oi', via: Label = 'A', whatsappId = wa.id) => {
  await customerSays(apps[via]!.api, tenant.admin.token, whatsappId, { from, name: 'Cliente', body });
  const ticket = await ticketOf(B().api, tenant.admin.token, from);
  expect((await B().api.put(`/tickets/${ticket.id}`, { status: 'open' }, tenant.admin.token)).status).toBe(200);
  return ticket;
};

beforeAll(async () => {
  db = await createTestDatabase();
  await start('A');
  // Each app's start logs the super admin in (ending the previous super session): tenants first.
  tenant = await createTenant(A(), 'Owner');
  wa = await connectSandbox(A().api, tenant.admin.token);
  await start('B', { SESSION_COMMAND_TIMEOUT_MS: '3000' });
  expect(A().app.channels.runs(wa.id)).toBe(true);
  expect(B().app.channels.runs(wa.id)).toBe(false);
}, 120_000);

afterAll(async () => {
  for (const app of Object.values(apps)) await app?.stop();
  await db?.drop();
});

describe('commands for a session another process runs', () => {
  it('a delete for everyone made on B is done by A’s session', async () => {
    const ticket = await openConversation('5511911110001');
    const reply = await B().api.post(`/messages/${ticket.id}`, { body: 'Mensagem errada' }, tenant.admin.token);
    expect(reply.status).toBe(200);
    await delivered(A().api, tenant.admin.token, wa.id, reply.body.wid);
    const deleted = await B().api.del(`/messages/${reply.body.id}`, tenant.admin.token);
    expect(deleted.status).toBe(200);
    expect((await outbox(A().api, tenant.admin.token, wa.id)).find((m) => m.id === reply.body.wid)).toMatchObject({ deleted: true });
  });

  it('read receipts for messages read on B are sent by A’s session', async () => {
    const ticket = await openConversation('5511911110002', 'Pode me ajudar?');
    const wid = await customerSays(A().api, tenant.admin.token, wa.id, { from: '5511911110002', body: 'Ainda está aí?' });
    expect((await B().api.get(`/messages/${ticket.id}`, tenant.admin.token)).status).toBe(200);
    await eventually(() => phoneOn('A')!.receipts.some((r) => r.to === '5511911110002' && r.ids.includes(wid)));
  });

  it('a number check on B is answered by A’s session', async () => {
    // The simulated network knows no number of 16 digits: A's session says so, B refuses the contact.
    const refused = await B().api.post('/contacts', { name: 'Ninguém', number: '5511999999999999' }, tenant.admin.token);
    expect(refused).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_INVALID_CONTACT' } });
    expect((await B().api.post('/contacts', { name: 'Alguém', number: '5511988880000' }, tenant.admin.token)).status).toBe(201);
  });

  it('a media download asked again on B gets A’s session’s answer', async () => {
    const from = '5511911110003';
    await openConversation(from);
    const wid = await customerSays(A().api, tenant.admin.token, wa.id, {
      from,
      body: 'foto',
      media: { mimetype: 'image/png', filename: 'a.png', base64: Buffer.from('png').toString('base64') },
    });
    const [message] = await sql<{ id: number }>(`select id from messages where whatsapp_id = ? and wid = ?`, [wa.id, wid]);
    await sql(`update messages set media_status = 'failed' where id = ?`, [message.id]);
    // The sandbox phone keeps no copy: its own refusal, not "not connected here".
    const res = await B().api.post(`/messages/${message.id}/media`, {}, tenant.admin.token);
    expect(res).toMatchObject({ status: 409, body: { error: 'ERR_MEDIA_REFETCH_UNSUPPORTED' } });
  });

  it('closing a ticket on B asks for the rating, since the connection is live on A', async () => {
    expect((await B().api.put('/settings/userRating', { value: 'enabled' }, tenant.admin.token)).status).toBe(200);
    expect((await B().api.put(`/whatsapp/${wa.id}`, { complationMessage: 'Até logo!' }, tenant.admin.token)).status).toBe(200);
    try {
      const from = '5511911110004';
      const ticket = await openConversation(from);
      const before = (await outbox(A().api, tenant.admin.token, wa.id)).length;
      expect((await B().api.put(`/tickets/${ticket.id}`, { status: 'closed' }, tenant.admin.token)).status).toBe(200);
      const sent = (await outboxOf(A().api, tenant.admin.token, wa.id, before + 1)).slice(before).filter((m) => m.to === from);
      expect(sent.map((m) => m.body)).toEqual([expect.stringContaining('*1*')]);
    } finally {
      await B().api.put('/settings/userRating', { value: 'disabled' }, tenant.admin.token);
    }
  });

  it('a pairing code asked on B comes from A’s session showing the QR code', async () => {
    const created = await A().api.post('/whatsapp', { name: 'Pairing', provider: 'sandbox' }, tenant.admin.token);
    expect(created.status).toBe(201);
    expect(A().app.channels.runs(created.body.id)).toBe(true);
    const res = await B().api.post(`/whatsappsession/${created.body.id}/pairing-code`, { number: '5511988887777' }, tenant.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.code).toMatch(/^[A-Z0-9]{8}$/);
    // The phone's controls too: a scan played through B pairs A's session, a customer's photo reaches it.
    expect((await B().api.post(`/sandbox/${created.body.id}/scan`, {}, tenant.admin.token)).status).toBe(200);
    expect(phoneOn('A', created.body.id)!.canSend()).toBe(true);
    const wid = await customerSays(B().api, tenant.admin.token, created.body.id, {
      from: '5511911110005',
      body: 'foto pelo B',
      media: { mimetype: 'image/png', filename: 'b.png', base64: Buffer.from('png bytes').toString('base64') },
    });
    const [stored] = await sql<{ media_type: string; media_name: string }>(`select media_type, media_name from messages where whatsapp_id = ? and wid = ?`, [created.body.id, wid]);
    expect(stored).toEqual({ media_type: 'image', media_name: 'b.png' });
  });

  it('a restart, a fresh start and a logout asked on B are done by A', async () => {
    const connection = await connectSandbox(A().api, tenant.admin.token);
    const first = phoneOn('A', connection.id);
    expect((await B().api.post(`/whatsappsession/${connection.id}`, {}, tenant.admin.token)).status).toBe(200);
    // A new session on A, with the stored credentials: connected again, and B runs nothing.
    expect(phoneOn('A', connection.id)).not.toBe(first);
    expect(phoneOn('A', connection.id)!.canSend()).toBe(true);
    expect(B().app.channels.runs(connection.id)).toBe(false);

    expect((await B().api.put(`/whatsappsession/${connection.id}`, {}, tenant.admin.token)).status).toBe(200);
    expect((await B().api.get(`/whatsapp/${connection.id}`, tenant.admin.token)).body.status).toBe('qrcode');
    expect(await em().count(ChannelAuthKey, { whatsappId: connection.id })).toBe(0);
    expect((await B().api.post(`/sandbox/${connection.id}/scan`, {}, tenant.admin.token)).status).toBe(200);

    const out = loggedOut('A', connection.id);
    expect((await B().api.del(`/whatsappsession/${connection.id}`, tenant.admin.token)).status).toBe(200);
    await out;
    expect(A().app.channels.runs(connection.id)).toBe(false);
    expect(await em().count(ChannelAuthKey, { whatsappId: connection.id })).toBe(0);
    expect(await sql('select owner from connection_leases where whatsapp_id = ?', [connection.id])).toEqual([]);
  });

  it('deleting a connection on B logs its phone out on A', async () => {
    const connection = await connectSandbox(A().api, tenant.admin.token);
    // Not A's own next lease round (its lease went with the row): B tells it.
    await A().app.channels.suspendKeeping();
    try {
      const out = loggedOut('A', connection.id);
      expect((await B().api.del(`/whatsapp/${connection.id}`, tenant.admin.token)).status).toBe(200);
      await out;
      expect(A().app.channels.runs(connection.id)).toBe(false);
    } finally {
      A().app.channels.startKeeping();
    }
  });

  it('deleting a company on B stops its sessions on A', async () => {
    // Each process's start logs the super admin in and ends the previous super session (C's start, in
    // another test, ends B's): a session of this test's own.
    const superToken = (await B().api.login(SUPER.email, SUPER.password)).token;
    const other = await createTenant({ ...B(), superToken }, 'OwnerGone');
    const connection = await connectSandbox(A().api, other.admin.token);
    expect(A().app.channels.runs(connection.id)).toBe(true);
    await A().app.channels.suspendKeeping();
    try {
      expect((await B().api.del(`/companies/${other.companyId}`, superToken)).status).toBe(200);
      await eventually(() => !A().app.channels.runs(connection.id));
    } finally {
      A().app.channels.startKeeping();
    }
  });

  it('a command for a process that does not answer fails with ERR_WAPP_OWNER_UNREACHABLE after the timeout', async () => {
    const connection = await connectSandbox(A().api, tenant.admin.token);
    await A().app.channels.stop(connection.id);
    // A process that took the connection and froze (or was cut off): its lease is live, it hears nothing.
    await sql(`insert into connection_leases (whatsapp_id, owner, expires_at) values (?, 'frozen:1:00000000', now() + interval '1 minute')`, [connection.id]);
    const startedAt = Date.now();
    const res = await B().api.post(`/sandbox/${connection.id}/scan`, {}, tenant.admin.token);
    expect(res).toMatchObject({ status: 503, body: { error: 'ERR_WAPP_OWNER_UNREACHABLE' } });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2_900);
    // Nothing left behind to run later.
    expect(await sql('select id from session_requests where whatsapp_id = ?', [connection.id])).toEqual([]);
    await sql('delete from connection_leases where whatsapp_id = ?', [connection.id]);
  });
});

describe('taking a connection over', () => {
  it('a process that starts leaves another process’s connections’ inbound queue to their owner', async () => {
    const payload = { id: 'LEFT-1', fromMe: false, chat: { number: '5511922220001', lid: null, name: 'Rui' }, body: 'deixada na fila', mediaType: 'chat', timestamp: new Date().toISOString() };
    await sql(`insert into inbound_queue (company_id, whatsapp_id, wid, payload, attempts, received_at) values (?, ?, 'LEFT-1', ?, 0, now())`, [
      tenant.companyId,
      wa.id,
      JSON.stringify(payload),
    ]);
    // C boots on the same database while A runs the connection: the queued message is not C's to store.
    await start('C');
    expect(await sql(`select wid from inbound_queue where wid = 'LEFT-1'`)).toEqual([{ wid: 'LEFT-1' }]);
    expect(await sql(`select id from messages where wid = 'LEFT-1'`)).toEqual([]);
    await apps.C!.stop();
    delete apps.C;
    // The owner takes it up when it (re)starts the session.
    await A().app.channels.start({ id: wa.id, companyId: tenant.companyId, provider: 'sandbox' });
    expect(await sql(`select body from messages where wid = 'LEFT-1'`)).toEqual([{ body: 'deixada na fila' }]);
    expect(await sql(`select wid from inbound_queue where wid = 'LEFT-1'`)).toEqual([]);
  });

  it('when the owner stops renewing, the other process takes the connection once the lease runs out, with what was left queued', async () => {
    // A connection of its own: the other tests' connection stays with A whatever their order.
    const connection = await connectSandbox(A().api, tenant.admin.token);
    await sql(`insert into inbound_queue (company_id, whatsapp_id, wid, payload, attempts, received_at) values (?, ?, 'LEFT-2', ?, 0, now())`, [
      tenant.companyId,
      connection.id,
      JSON.stringify({ id: 'LEFT-2', fromMe: false, chat: { number: '5511922220002', lid: null }, body: 'antes da queda', mediaType: 'chat', timestamp: new Date().toISOString() }),
    ]);
    await A().app.channels.suspendKeeping();
    try {
      // The lease's time passes (A renews no more).
      await sql(`update connection_leases set expires_at = now() - interval '1 second' where whatsapp_id = ?`, [connection.id]);
      await eventually(() => phoneOn('B', connection.id)?.canSend() === true);
      expect(await sql(`select body from messages where wid = 'LEFT-2'`)).toEqual([{ body: 'antes da queda' }]);
      // B receives and sends on it now.
      const ticket = await openConversation('5511922220003', 'Oi', 'B', connection.id);
      const reply = await B().api.post(`/messages/${ticket.id}`, { body: 'Continuamos por aqui' }, tenant.admin.token);
      expect(await delivered(B().api, tenant.admin.token, connection.id, reply.body.wid)).toMatchObject({ body: 'Continuamos por aqui' });
    } finally {
      // A's own next round finds the lease B's and stops its copy of the session.
      A().app.channels.startKeeping();
    }
  });
});
