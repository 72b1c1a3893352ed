import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../db/embedded.js';
import { initOrm } from '../../db/orm.js';
import { createLogger } from '../../logger.js';
import { startBaileysApp, waMessage as wa, type BaileysApp } from '../../../testing/baileys-app.js';
import { ticketOf } from '../../../testing/conversation.js';
import { eventually, type Tenant, type TestApp } from '../../../testing/helpers.js';

/**
 * A database outage while customers write: the server runs on a PostgreSQL of this file's own (the
 * embedded one, as in production), which the test stops while Baileys hands messages over and starts
 * again. What Baileys acknowledged to WhatsApp meanwhile waits in the spool file and is stored once.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'atrium-spool-'));
// The embedded PostgreSQL runs as its own system user when we are root: it must reach its folder.
chmodSync(scratch, 0o755);
const pgDir = path.join(scratch, 'postgres');
const spoolDir = path.join(scratch, 'spool');
const logger = createLogger('silent');
let port: number;
let pg: EmbeddedDatabase | undefined;
const startPostgres = async () => {
  pg = await startEmbeddedPostgres({ dir: pgDir, port, password: 'spool-test', database: 'atrium', logger });
  return pg;
};

let t: TestApp;
let a: Tenant;
let whatsappId: number;
let baileys: BaileysApp;
const socket = () => baileys.socket();

beforeAll(async () => {
  port = await freePort();
  const db = await startPostgres();
  // Migrated as the server's own start does.
  await (await initOrm(db.url, logger)).close(true);
  baileys = await startBaileysApp({
    tenant: 'Spool',
    provider: { spoolDir, spoolRetry: { minMs: 200, maxMs: 1_000 } },
    sharedDatabaseUrl: db.url,
  });
  ({ t, tenant: a, whatsappId } = baileys);
}, 120_000);

afterAll(async () => {
  await t?.stop();
  await pg?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const upsert = (...messages: WAMessage[]) => baileys.upsert(...messages);
const spoolLines = () => {
  const file = path.join(spoolDir, `${whatsappId}.jsonl`);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()) : [];
};

describe('a database outage while messages arrive', () => {
  it('loses none: each waits in the spool and is stored once, in order, when PostgreSQL is back', async () => {
    const maria = '5511977770001';
    const joao = '5511977770002';
    // Maria's conversation exists before the outage, with an agent's reply.
    upsert(wa({ remoteJid: `${maria}@s.whatsapp.net`, id: 'M0' }, { conversation: 'Oi' }, { pushName: 'Maria' }));
    const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, maria)) ?? false);
    await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token);
    const reply = await t.api.post(`/messages/${ticket.id}`, { body: 'Olá, Maria' }, a.admin.token);
    expect(reply.status).toBe(200);
    await eventually(() => socket().sent.some((s) => s.options?.messageId === reply.body.wid));

    // WhatsApp stamps messages in whole seconds: those sent after the reply carry a later second, or they
    // could sort before it within the reply's own second.
    const later = { messageTimestamp: Math.floor(Date.now() / 1000) + 1 };
    await pg!.stop();
    upsert(
      wa({ remoteJid: `${maria}@s.whatsapp.net`, id: 'M1' }, { conversation: 'Meu pedido não chegou' }, { pushName: 'Maria', ...later }),
      wa({ remoteJid: `${joao}@s.whatsapp.net`, id: 'J1' }, { conversation: 'Bom dia' }, { pushName: 'João', ...later }),
    );
    upsert(wa({ remoteJid: `${maria}@s.whatsapp.net`, id: 'M2' }, { extendedTextMessage: { text: 'Número 123' } }, { pushName: 'Maria', ...later }));
    upsert(wa({ remoteJid: `${joao}@s.whatsapp.net`, id: 'J2' }, { conversation: 'Alguém aí?' }, { pushName: 'João', ...later }));
    // Maria reads the reply and corrects a message meanwhile: a receipt and an edit wait there too.
    socket().emit('messages.update', [{ key: { remoteJid: `${maria}@s.whatsapp.net`, fromMe: true, id: reply.body.wid }, update: { status: proto.WebMessageInfo.Status.READ } }]);
    upsert(
      wa(
        { remoteJid: `${maria}@s.whatsapp.net`, id: 'M2-EDIT' },
        {
          protocolMessage: {
            key: { remoteJid: `${maria}@s.whatsapp.net`, fromMe: true, id: 'M2' },
            type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
            editedMessage: { conversation: 'Número 124' },
          },
        },
      ),
    );
    // Every one is on the disk while the database is down (WhatsApp has been told they arrived).
    const spooled = () => spoolLines().map((l) => JSON.parse(l) as { m?: { key?: { id?: string } }; u?: { id: string } });
    await eventually(() => expect(spooled().map((e) => e.m?.key?.id ?? `update ${e.u?.id}`).sort()).toEqual(['J1', 'J2', 'M1', 'M2', 'M2-EDIT', `update ${reply.body.wid}`].sort()), 30_000);

    await startPostgres();
    const stored = async (number: string) => {
      const ticket = await ticketOf(t.api, a.admin.token, number);
      if (!ticket) return [];
      const res = await t.api.get(`/messages/${ticket.id}`, a.admin.token);
      return (res.body.messages as { wid: string; body: string }[]).map((m) => [m.wid, m.body]);
    };
    await eventually(async () => expect(await stored(joao)).toHaveLength(2), 60_000);
    await eventually(async () => expect(await stored(maria)).toHaveLength(4), 60_000);
    await eventually(async () => expect(await stored(maria)).toEqual([
      ['M0', 'Oi'],
      [reply.body.wid, 'Olá, Maria'],
      ['M1', 'Meu pedido não chegou'],
      ['M2', 'Número 124'],
    ]));
    // The receipt came after its message: the reply reads as read (ack 3).
    const messages = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages as { wid: string; ack: number; isEdited: boolean }[];
    expect(messages.find((m) => m.wid === reply.body.wid)?.ack).toBe(3);
    expect(messages.find((m) => m.wid === 'M2')?.isEdited).toBe(true);
    expect(await stored(joao)).toEqual([
      ['J1', 'Bom dia'],
      ['J2', 'Alguém aí?'],
    ]);
    // Nothing waits any more: the file is emptied.
    await eventually(() => expect(spoolLines()).toEqual([]));
    // A message after the outage goes straight through.
    // (Stamped after the outage's messages: on a fast machine the whole outage fits in their second.)
    const after = { messageTimestamp: Math.max(Math.floor(Date.now() / 1000), later.messageTimestamp + 1) };
    upsert(wa({ remoteJid: `${joao}@s.whatsapp.net`, id: 'J3' }, { conversation: 'Obrigado' }, { pushName: 'João', ...after }));
    await eventually(async () => expect((await stored(joao)).map(([wid]) => wid)).toEqual(['J1', 'J2', 'J3']));
  }, 180_000);
});
