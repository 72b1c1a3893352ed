import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import { connectSandbox, customerSays } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { pruneRawMessages, pruneReceivedMedia } from './messages.retention.js';

let t: TestApp;
let tenant: Tenant;
let wa: { id: number; number: string };

beforeAll(async () => {
  t = await startTestApp();
  tenant = await createTenant(t, 'Retention');
  wa = await connectSandbox(t.api, tenant.admin.token);
});
afterAll(async () => {
  await t?.stop();
});

const sql = <T extends object>(query: string, params: unknown[] = []) => forSystem(t.app.orm.em.fork()).getConnection().execute<T[]>(query, params, 'all');
const rawOf = async (wid: string) => (await sql<{ raw: unknown }>('select raw from messages where wid = ?', [wid]))[0]?.raw;

describe('raw message retention', () => {
  it('forgets the provider objects of messages older than the limit, except a media still to fetch', async () => {
    const from = '5511977770001';
    const says = (body: string) => customerSays(t.api, tenant.admin.token, wa.id, { from, body });
    const old = await says('old');
    const oldMedia = await says('old media');
    const recent = await says('recent');
    await eventually(async () => expect((await sql('select id from messages where wid = any(?::text[])', [`{${old},${oldMedia},${recent}}`])).length).toBe(3));
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60_000);
    await sql(`update messages set raw = '{"key":{"id":"x"}}', created_at = ? where wid = ?`, [daysAgo(31), old]);
    await sql(`update messages set raw = '{"key":{"id":"y"}}', created_at = ?, media_status = 'pending' where wid = ?`, [daysAgo(31), oldMedia]);
    await sql(`update messages set raw = '{"key":{"id":"z"}}', created_at = ? where wid = ?`, [daysAgo(29), recent]);

    const systemEm = () => forSystem(t.app.orm.em.fork());
    // 0 days: kept forever.
    expect(await pruneRawMessages(systemEm, { days: 0, now })).toBe(0);
    expect(await rawOf(old)).not.toBeNull();

    expect(await pruneRawMessages(systemEm, { days: 30, now })).toBeGreaterThanOrEqual(1);
    expect(await rawOf(old)).toBeNull();
    expect(await rawOf(oldMedia)).not.toBeNull();
    expect(await rawOf(recent)).not.toBeNull();
    // The message itself stays, with its text.
    expect((await sql<{ body: string }>('select body from messages where wid = ?', [old]))[0]?.body).toBe('old');
  });

  it('removes received files past the company’s media retention, marks their messages expired, and keeps the rest', async () => {
    const other = await createTenant(t, 'RetentionForever');
    const otherWa = await connectSandbox(t.api, other.admin.token);
    expect((await t.api.put('/settings/mediaRetentionDays', { value: '30' }, tenant.admin.token)).status).toBe(200);
    expect((await t.api.put('/settings/mediaRetentionDays', { value: '1' }, tenant.admin.token)).status).toBe(400);

    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60_000);
    /** A message with a stored file, `days` old. */
    const withFile = async (companyId: number, whatsappId: number, token: string, body: string, days: number, fromMe = false) => {
      const wid = await customerSays(t.api, token, whatsappId, { from: '5511977770002', body });
      await eventually(async () => expect(await sql('select id from messages where wid = ?', [wid])).toHaveLength(1));
      const stored = await t.app.media.save(companyId, { data: Buffer.from(body), mimetype: 'image/jpeg' });
      await sql(`update messages set media_url = ?, media_type = 'image', created_at = ?, from_me = ? where wid = ?`, [stored.fileName, daysAgo(days), fromMe, wid]);
      return { wid, fileName: stored.fileName };
    };
    const old = await withFile(tenant.companyId, wa.id, tenant.admin.token, 'old photo', 31);
    const recent = await withFile(tenant.companyId, wa.id, tenant.admin.token, 'recent photo', 29);
    const ours = await withFile(tenant.companyId, wa.id, tenant.admin.token, 'our photo', 31, true);
    const forever = await withFile(other.companyId, otherWa.id, other.admin.token, 'kept photo', 400);

    const systemEm = () => forSystem(t.app.orm.em.fork());
    expect(await pruneReceivedMedia({ systemEm, media: t.app.media, logger: t.app.logger }, { now })).toBe(1);
    const row = async (wid: string) => (await sql<{ media_url: string | null; media_status: string | null }>('select media_url, media_status from messages where wid = ?', [wid]))[0];
    expect(await row(old.wid)).toEqual({ media_url: null, media_status: 'expired' });
    expect(await t.app.media.exists(tenant.companyId, old.fileName)).toBe(false);
    for (const kept of [recent, ours]) {
      expect(await row(kept.wid)).toEqual({ media_url: kept.fileName, media_status: null });
      expect(await t.app.media.exists(tenant.companyId, kept.fileName)).toBe(true);
    }
    expect(await row(forever.wid)).toEqual({ media_url: forever.fileName, media_status: null });
    expect(await t.app.media.exists(other.companyId, forever.fileName)).toBe(true);
  });
});
