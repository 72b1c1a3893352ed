import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import { connectSandbox, customerSays } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { pruneRawMessages } from './messages.retention.js';

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
});
