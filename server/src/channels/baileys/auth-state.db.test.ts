import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { initAuthCreds, proto } from '@whiskeysockets/baileys';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { initOrm } from '../../db/orm.js';
import { TEMPLATE_DB } from '../../../testing/global-setup.js';
import { pruneIdleSignalKeys } from '../../modules/connections/connections.key-retention.js';
import { createAuthStore } from '../auth-store.js';
import type { AuthStore } from '../types.js';
import { useAuthStoreState } from './auth-state.js';

/** The Baileys auth state through the real AuthStore: PostgreSQL's jsonb, not a stand-in. */
describe('Baileys auth state in PostgreSQL (channel_auth_keys)', () => {
  const base = inject('pgUrl');
  const admin = () => new pg.Client({ connectionString: base.replace(/\/[^/]+$/, '/postgres') });
  const dbName = `t_${randomBytes(6).toString('hex')}`;
  let orm: MikroORM;
  let store: AuthStore;
  let other: AuthStore;

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`CREATE DATABASE ${dbName} TEMPLATE ${TEMPLATE_DB}`);
    await client.end();
    orm = await initOrm(base.replace(/\/[^/]+$/, `/${dbName}`));
    const sql = orm.em.getConnection();
    const [plan] = await sql.execute(`insert into plans (name, created_at, updated_at) values ('p', now(), now()) returning id`);
    const [company] = await sql.execute(
      `insert into companies (name, plan_id, created_at, updated_at) values ('c', ?, now(), now()) returning id`,
      [plan.id],
    );
    const connections = await sql.execute(
      `insert into whatsapps (company_id, name, created_at, updated_at) values (?, 'a', now(), now()), (?, 'b', now(), now()) returning id`,
      [company.id, company.id],
    );
    store = createAuthStore(() => orm.em, company.id, connections[0].id);
    other = createAuthStore(() => orm.em, company.id, connections[1].id);
  });

  afterAll(async () => {
    await orm?.close(true);
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await client.end();
  });

  it('round-trips credentials and every kind of signal key with their Buffers', async () => {
    const first = await useAuthStoreState(store);
    const creds = first.state.creds;
    Object.assign(creds, initAuthCreds(), { me: { id: '5511900001111:7@s.whatsapp.net', lid: '88800011122233:7@lid' }, registered: true });
    await first.saveCreds();
    await first.state.keys.set({
      'pre-key': { '1': { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5, 6]) } },
      session: { '5511988887777.0': Buffer.from([7, 8, 9]) },
      'sender-key-memory': { '120363025246125888@g.us': { '5511988887777:0@s.whatsapp.net': true } },
      'app-state-sync-key': { AAAAAAAB: proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from([5, 5]), timestamp: 1_700_000_000 }) },
      // digits-only strings: jsonb must give them back as strings, not numbers
      'lid-mapping': { '5511988887777': '203948571234567', '203948571234567_reverse': '5511988887777' },
      'device-list': { '5511988887777': ['0', '12'] },
    });

    const again = await useAuthStoreState(store);
    expect(again.state.creds.me?.id).toBe('5511900001111:7@s.whatsapp.net');
    expect(again.state.creds.registered).toBe(true);
    expect(Buffer.isBuffer(again.state.creds.noiseKey.private)).toBe(true);
    expect(Buffer.compare(again.state.creds.noiseKey.private, creds.noiseKey.private)).toBe(0);
    expect(Buffer.compare(again.state.creds.signedPreKey.keyPair.public, creds.signedPreKey.keyPair.public)).toBe(0);

    const keys = again.state.keys;
    const pre = await keys.get('pre-key', ['1', '404']);
    expect(Object.keys(pre)).toEqual(['1']);
    expect(Buffer.isBuffer(pre['1'].private)).toBe(true);
    expect([...pre['1'].private]).toEqual([4, 5, 6]);
    const session = (await keys.get('session', ['5511988887777.0']))['5511988887777.0'];
    expect(Buffer.isBuffer(session)).toBe(true);
    expect([...session]).toEqual([7, 8, 9]);
    expect((await keys.get('sender-key-memory', ['120363025246125888@g.us']))['120363025246125888@g.us']).toEqual({
      '5511988887777:0@s.whatsapp.net': true,
    });
    const sync = (await keys.get('app-state-sync-key', ['AAAAAAAB'])).AAAAAAAB;
    expect(sync).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect([...(sync.keyData as Uint8Array)]).toEqual([5, 5]);
    const mapping = await keys.get('lid-mapping', ['5511988887777', '203948571234567_reverse']);
    expect(mapping).toEqual({ '5511988887777': '203948571234567', '203948571234567_reverse': '5511988887777' });
    expect((await keys.get('device-list', ['5511988887777']))['5511988887777']).toEqual(['0', '12']);

    // another connection of the same company sees none of it
    expect(await other.get('creds')).toBeNull();

    await keys.set({ 'pre-key': { '1': null } });
    expect(await keys.get('pre-key', ['1'])).toEqual({});
    await store.clear();
    expect(await store.get('creds')).toBeNull();
    expect((await useAuthStoreState(store)).state.creds.registered).toBe(false);
  });

  it('writes a set of keys all or nothing, upserts before deletes: a failed write deletes nothing', async () => {
    await store.set({ 'session-old': { v: 1 }, 'session-keep': { v: 2 } });
    // PostgreSQL's jsonb refuses U+0000: the upsert fails, and the delete asked with it must not happen.
    await expect(store.set({ 'session-new': { v: '\u0000' }, 'session-old': null })).rejects.toThrow();
    expect(await store.getMany(['session-old', 'session-keep', 'session-new'])).toEqual({ 'session-old': { v: 1 }, 'session-keep': { v: 2 } });
    await store.set({ 'session-new': { v: 3 }, 'session-old': null });
    expect(await store.getMany(['session-old', 'session-keep', 'session-new'])).toEqual({ 'session-keep': { v: 2 }, 'session-new': { v: 3 } });
    await store.clear();
  });

  it('stores the creds with every signal-key write, so their counters match the keys stored', async () => {
    const { state } = await useAuthStoreState(store);
    state.creds.nextPreKeyId = 31;
    state.creds.firstUnuploadedPreKeyId = 31;
    await state.keys.set({ 'pre-key': { '30': { public: Buffer.from([1]), private: Buffer.from([2]) } } });
    const again = await useAuthStoreState(store);
    expect(again.state.creds.nextPreKeyId).toBe(31);
    expect(Object.keys(await again.state.keys.get('pre-key', ['30']))).toEqual(['30']);
    await store.clear();
  });

  it('prunes sessions and group keys unused for the set days, and keeps every other kind and the used ones', async () => {
    const { state, saveCreds } = await useAuthStoreState(store);
    await saveCreds();
    const bytes = Buffer.from([7, 7]);
    await state.keys.set({
      session: { '5511900000001.0': bytes, '5511900000002.0': bytes },
      'sender-key': { 'group@g.us::5511900000001::0': bytes },
      'sender-key-memory': { 'group@g.us': { '5511900000001:0@s.whatsapp.net': true } },
      'device-list': { '5511900000001': ['0'] },
      'pre-key': { '9': { public: bytes, private: bytes } },
      'lid-mapping': { '5511900000001': '123456789' },
      'identity-key': { '5511900000001.0': bytes },
      'app-state-sync-version': { regular: { version: 1, hash: bytes, indexValueMap: {} } },
    });
    await other.set({ 'session-5511900000003.0': { v: 1 } });
    // Everything last written 100 days ago; then one contact writes again (its session ratchets today).
    await orm.em.getConnection().execute(`update channel_auth_keys set updated_at = now() - interval '100 days'`);
    await state.keys.set({ session: { '5511900000002.0': Buffer.from([8]) } });

    expect(await pruneIdleSignalKeys(() => orm.em, { days: 120 })).toBe(0);
    expect(await pruneIdleSignalKeys(() => orm.em, { days: 0 })).toBe(0);
    expect(await pruneIdleSignalKeys(() => orm.em, { days: 90 })).toBe(5);

    const rows = await orm.em.getConnection().execute<{ key: string }[]>(`select key from channel_auth_keys order by key`);
    expect(rows.map((r) => r.key)).toEqual([
      'app-state-sync-version-regular',
      'creds',
      'identity-key-5511900000001.0',
      'lid-mapping-5511900000001',
      'pre-key-9',
      'session-5511900000002.0',
    ]);
    // What Baileys reads back: the pruned contact has no session (it starts a new one), the other has its own.
    const reread = await useAuthStoreState(store);
    expect(await reread.state.keys.get('session', ['5511900000001.0', '5511900000002.0'])).toEqual({ '5511900000002.0': Buffer.from([8]) });
    await store.clear();
  });
});
