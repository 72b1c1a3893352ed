import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { afterAll, describe, expect, it } from 'vitest';
import { InboundSpool, isDatabaseUnreachable } from './spool.js';

const dir = mkdtempSync(path.join(tmpdir(), 'atrium-spool-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const msg = (id: string, extra: Record<string, unknown> = {}): WAMessage => {
  const m = proto.WebMessageInfo.fromObject({
    key: { remoteJid: '203948571234567@lid', id, fromMe: false },
    message: { imageMessage: { caption: `photo ${id}`, mediaKey: Buffer.from('0123456789abcdef0123456789abcdef') } },
    messageTimestamp: 1_700_000_000,
    ...extra,
  }) as WAMessage;
  m.key.remoteJidAlt = '5511988887777@s.whatsapp.net';
  return m;
};

describe('InboundSpool', () => {
  it('keeps what is not marked stored across a restart, Buffers and Baileys’ own key fields included', async () => {
    const file = path.join(dir, 'a', '1.jsonl');
    const spool = new InboundSpool(file);
    await spool.add([{ message: msg('A') }, { message: msg('B') }]);
    await spool.add([{ message: msg('C') }, { update: { id: 'OURS1', fromMe: true, ack: 3 } }]);
    await spool.done(spool.entries()[0]);
    await spool.close();
    // A crash cut the last line off half-way: that write never returned, so nothing was taken as spooled.
    appendFileSync(file, '{"s":5,"m":{"key":');

    const again = new InboundSpool(file);
    await again.load();
    expect(again.entries().map((e) => e.message?.key.id ?? e.update)).toEqual(['B', 'C', { id: 'OURS1', fromMe: true, ack: 3 }]);
    const b = again.entries()[0].message!;
    expect(b.key.remoteJidAlt).toBe('5511988887777@s.whatsapp.net');
    expect(Buffer.from(b.message!.imageMessage!.mediaKey!)).toEqual(Buffer.from('0123456789abcdef0123456789abcdef'));
    expect(Number(b.messageTimestamp)).toBe(1_700_000_000);

    // New ones follow the old ones' numbers, on a line of their own after the cut-off one.
    await again.add([{ message: msg('D') }]);
    expect(again.entries().map((e) => e.seq)).toEqual([2, 3, 4, 5]);
    await again.close();
    const third = new InboundSpool(file);
    await third.load();
    expect(third.entries().map((e) => e.message?.key.id ?? e.update?.id)).toEqual(['B', 'C', 'OURS1', 'D']);
    // Once nothing waits, the file is emptied.
    for (const entry of [...third.entries()]) await third.done(entry);
    expect(third.holds).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('');
    await third.close();
  });

  it('is empty when no file was ever written', async () => {
    const spool = new InboundSpool(path.join(dir, 'none', '9.jsonl'));
    await spool.load();
    expect(spool.holds).toBe(false);
  });

  it('tells the database being unreachable from a message that cannot be stored', () => {
    expect(isDatabaseUnreachable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnreachable(new Error('the database system is starting up'))).toBe(true);
    // MikroORM wraps the driver's error.
    expect(isDatabaseUnreachable(Object.assign(new Error('wrapped'), { name: 'DriverException', previous: { code: 'ECONNRESET' } }))).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('value too long for type character varying(255)'), { code: '22001' }))).toBe(false);
    expect(isDatabaseUnreachable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });
});
