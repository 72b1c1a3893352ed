import { proto, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys';
import { createBaileysProvider, type BaileysProviderOptions } from '../src/channels/baileys/index.js';
import { FakeSocket } from './baileys-socket.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from './helpers.js';

/** The Baileys provider inside a real test server, on injected sockets (testing/baileys-socket.ts). */
export interface BaileysApp {
  t: TestApp;
  /** The company that owns the connection. */
  tenant: Tenant;
  whatsappId: number;
  /** Every socket the session made, in order (a reconnect makes a new one). */
  sockets: FakeSocket[];
  /** The session's current socket. */
  socket(): FakeSocket;
  /** Hands messages to the session as Baileys' messages.upsert does for new ones. */
  upsert(...messages: WAMessage[]): void;
}

/**
 * A server whose `beta` provider is Baileys on fake sockets, one company, and its connection linked to
 * 5511900001111 and CONNECTED: what every Baileys app test starts from.
 */
export const startBaileysApp = async (options: {
  tenant: string;
  env?: Record<string, string>;
  provider?: Omit<BaileysProviderOptions, 'socketFactory'>;
  sharedDatabaseUrl?: string;
}): Promise<BaileysApp> => {
  const sockets: FakeSocket[] = [];
  const beta = createBaileysProvider({
    fetchWebVersion: async () => undefined,
    ...options.provider,
    socketFactory: (config) => {
      const s = new FakeSocket(config);
      sockets.push(s);
      return s;
    },
  });
  const t = await startTestApp(options.env ?? {}, { providers: { beta }, sharedDatabaseUrl: options.sharedDatabaseUrl });
  const tenant = await createTenant(t, options.tenant);
  const created = await t.api.post('/whatsapp', { name: 'Phone', provider: 'beta' }, tenant.admin.token);
  if (created.status !== 201) throw new Error(`connection not created: ${created.status} ${JSON.stringify(created.body)}`);
  const whatsappId = created.body.id as number;
  const socket = () => sockets[sockets.length - 1];
  await eventually(() => sockets.length === 1);
  socket().open('5511900001111:7@s.whatsapp.net');
  await eventually(async () => (await t.api.get(`/whatsapp/${whatsappId}`, tenant.admin.token)).body.status === 'CONNECTED');
  return { t, tenant, whatsappId, sockets, socket, upsert: (...messages) => socket().emit('messages.upsert', { type: 'notify', messages }) };
};

/** A real Baileys message object as messages.upsert carries it: from the customer, stamped now unless `extra` says. */
export const waMessage = (
  key: Partial<WAMessageKey> & { remoteJid: string; id: string },
  message: Record<string, unknown> | undefined,
  extra: Record<string, unknown> = {},
): WAMessage =>
  proto.WebMessageInfo.fromObject({ key: { fromMe: false, ...key }, message, messageTimestamp: Math.floor(Date.now() / 1000), ...extra }) as WAMessage;
