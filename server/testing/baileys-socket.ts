import { EventEmitter } from 'node:events';
import {
  DisconnectReason,
  proto,
  type AnyMessageContent,
  type BaileysEventMap,
  type GroupMetadata,
  type MiscMessageGenerationOptions,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys';
import type { BaileysSocket } from '../src/channels/baileys/session.js';

/*
 * A Baileys socket double for tests: Baileys' own event names and proto objects go through the same
 * \`ev\` emitter API a real socket has, and sends are recorded instead of going to WhatsApp.
 */

/** A Baileys socket double: the same `ev` emitter API, and `end()` emitting a close like the real one. */
export class FakeSocket implements BaileysSocket {
  readonly emitter = new EventEmitter();
  readonly ev = this.emitter as unknown as BaileysSocket['ev'];
  user: BaileysSocket['user'];
  ended = 0;
  loggedOut = 0;
  readonly sent: { jid: string; content: AnyMessageContent; options?: MiscMessageGenerationOptions }[] = [];
  readonly read: WAMessageKey[][] = [];
  failSends = false;
  groupLookups = 0;
  signalRepository?: BaileysSocket['signalRepository'];
  private counter = 0;

  constructor(readonly config: UserFacingSocketConfig) {}

  emit<E extends keyof BaileysEventMap>(event: E, arg: BaileysEventMap[E]): void {
    this.emitter.emit(event, arg);
  }

  open(id = '5511900001111:7@s.whatsapp.net'): void {
    this.user = { id, lid: '88800011122233:7@lid' };
    this.emit('connection.update', { connection: 'open' });
  }

  close(statusCode?: number): void {
    const error = statusCode === undefined ? undefined : boom(statusCode);
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }

  end = async (error: Error | undefined): Promise<void> => {
    this.ended += 1;
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  };

  logout = async (): Promise<void> => {
    this.loggedOut += 1;
    void this.end(boom(DisconnectReason.loggedOut));
  };

  sendMessage = async (jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> => {
    if (this.failSends) throw boom(500);
    this.sent.push({ jid, content, options });
    this.counter += 1;
    return proto.WebMessageInfo.fromObject({
      // Baileys sends with the id it is given, as the outbox's sends are.
      key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? `3EB0SENT${this.counter}` },
      messageTimestamp: 1_700_000_100,
      status: proto.WebMessageInfo.Status.PENDING,
    }) as WAMessage;
  };

  readMessages = async (keys: WAMessageKey[]): Promise<void> => {
    this.read.push(keys);
  };

  onWhatsApp = async (...jids: string[]) =>
    jids.filter((jid) => jid.startsWith('55')).map((jid) => ({ jid: jid.replace('5511', '55119'), exists: true }));

  groupMetadata = async (jid: string): Promise<GroupMetadata> => {
    this.groupLookups += 1;
    return { id: jid, subject: 'Clientes VIP', participants: [], owner: undefined };
  };

  updateMediaMessage = async (message: WAMessage): Promise<WAMessage> => message;

  readonly pairingRequests: string[] = [];
  requestPairingCode = async (phoneNumber: string): Promise<string> => {
    this.pairingRequests.push(phoneNumber);
    return 'ABCD1234';
  };
}

export const boom = (statusCode: number): Error => Object.assign(new Error(`closed ${statusCode}`), { isBoom: true, output: { statusCode } });
