import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBaileysApp, type BaileysApp } from '../../../testing/baileys-app.js';

/**
 * A server process that loses its connection's lease: a file of its own, as the connection is no longer
 * run by this server afterwards (in baileys.app.test.ts it had to be the last test, and a shuffled run
 * ran it first).
 */
let baileys: BaileysApp;
const socket = () => baileys.socket();

beforeAll(async () => {
  baileys = await startBaileysApp({ tenant: 'Lease' });
});
afterAll(async () => {
  await baileys?.t.stop();
});

describe('losing the connection’s lease to another server process', () => {
  it('refuses the session’s key writes at once, then ends its socket without a word on the connection', async () => {
    const { t, tenant: a, whatsappId } = baileys;
    const sql = (query: string, params: unknown[] = []) => t.app.orm.em.fork().getConnection().execute(query, params);
    const keys = () => sql(`select key, value::text from channel_auth_keys where whatsapp_id = ? order by key`, [whatsappId]);
    const live = t.app.channels.get(whatsappId) as unknown as { options: { auth: { set(entries: Record<string, unknown>): Promise<void> } } };
    // While this process holds the lease, the session's writes go through.
    await live.options.auth.set({ 'pre-key-1': { public: 'a', private: 'b' } });
    const before = await keys();
    expect((before as { key: string }[]).map((k) => k.key)).toContain('pre-key-1');
    // Another process took the lease over (this one was frozen past its expiry).
    await sql(`update connection_leases set owner = 'another-process', expires_at = now() + interval '1 minute' where whatsapp_id = ?`, [whatsappId]);
    // The write Baileys makes when its keys or creds change, through the session's own store: refused.
    await expect(live.options.auth.set({ creds: { overwritten: true }, 'pre-key-1': null })).rejects.toMatchObject({ name: 'LeaseLostError' });
    expect(await keys()).toEqual(before);

    const ended = socket().ended;
    await t.app.channels.keepLeases();
    expect(socket().ended).toBe(ended + 1);
    expect(t.app.channels.runs(whatsappId)).toBe(false);
    // The other process's connection state stands: nothing written over it.
    expect((await t.api.get(`/whatsapp/${whatsappId}`, a.admin.token)).body).toMatchObject({ status: 'CONNECTED' });
    expect(await keys()).toEqual(before);
  });
});
