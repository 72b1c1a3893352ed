import { makeWASocket } from '@whiskeysockets/baileys';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AuthStore, ChannelStatus } from '../types.js';
import { createBaileysProvider } from './index.js';

/** The session driving Baileys' real socket (no fake), against a server that is not there. */
describe('BaileysSession with the real makeWASocket', () => {
  it('accepts our auth state and config, retries an unreachable server and stops cleanly', async () => {
    const rows = new Map<string, string>();
    const auth: AuthStore = {
      get: async <T>(key: string) => (rows.has(key) ? (JSON.parse(rows.get(key)!) as T) : null),
      getMany: async <T>(keys: string[]) =>
        Object.fromEntries(keys.filter((k) => rows.has(k)).map((k) => [k, JSON.parse(rows.get(k)!) as T])),
      set: async (entries) => {
        for (const [k, v] of Object.entries(entries)) {
          if (v === null || v === undefined) rows.delete(k);
          else rows.set(k, JSON.stringify(v));
        }
      },
      clear: async () => rows.clear(),
    };
    const statuses: ChannelStatus[] = [];
    let sockets = 0;
    const provider = createBaileysProvider({
      reconnect: { baseMs: 20, maxMs: 40, jitter: 0 },
      // port 9 (discard) on loopback: refused at once, no network needed
      socketConfig: { waWebSocketUrl: 'ws://127.0.0.1:9/ws/chat', connectTimeoutMs: 2_000 },
      socketFactory: (config) => {
        sockets += 1;
        return makeWASocket(config);
      },
    });
    const session = provider.createSession({
      whatsappId: 1,
      companyId: 1,
      auth,
      logger: pino({ level: 'silent' }),
      events: {
        qr: () => undefined,
        status: (status) => {
          statuses.push(status);
        },
        message: async () => undefined,
        messageUpdate: async () => undefined,
        contactUpdate: async () => undefined,
      },
    });
    await session.start();
    await expect.poll(() => sockets, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await session.stop();
    const made = sockets;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sockets).toBe(made);
    expect(statuses).toEqual(['OPENING']);
    await expect(session.sendText({ to: { number: '5511988887777', lid: null }, text: 'x' })).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
  });
});
