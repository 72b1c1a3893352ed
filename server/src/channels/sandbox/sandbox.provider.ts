import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type {
  ChannelPeer,
  ChannelProvider,
  ChannelSession,
  InboundMediaType,
  OutboundMedia,
  OutboundText,
  SentMessage,
  SessionOptions,
} from '../types.js';
import { SandboxOutbox } from './outbox.entity.js';

/**
 * The `sandbox` channel: a simulated phone for offline demos and end-to-end tests. It behaves like a
 * real session (OPENING, a QR code, CONNECTED after a scan, DISCONNECTED on logout); customers are
 * played through its HTTP endpoints, and what the platform sends lands in its outbox table.
 */
const CREDS = 'sandbox:creds';

export interface SandboxInbound {
  from: string;
  name?: string;
  body?: string;
  id?: string;
  quotedId?: string;
  replyId?: string;
  media?: { mimetype: string; filename?: string; data: Buffer };
}

export const mediaTypeOf = (mimetype: string): InboundMediaType => {
  const family = mimetype.split('/')[0];
  if (family === 'image' || family === 'audio' || family === 'video') return family;
  return 'application';
};

/** A fault the simulated network answers the next sends with (tests and demos of failed sends). */
export interface SandboxFault {
  /** ERR_SENDING_WAPP_MSG (a timeout) is transient; ERR_WAPP_INVALID_CONTACT (not on WhatsApp) is permanent. */
  code: 'ERR_SENDING_WAPP_MSG' | 'ERR_WAPP_INVALID_CONTACT';
  count: number;
}

export class SandboxSession implements ChannelSession {
  private state: 'closed' | 'qrcode' | 'connected' = 'closed';
  private number = '';
  /** What the customer's phone showed ("typing…"), in order. */
  readonly presences: { to: string; presence: string; at: Date }[] = [];
  fault: SandboxFault | null = null;
  /** Off, the phone behaves like a network that keeps no record of what it received (as WhatsApp): only echoes tell. */
  recordsSends = true;

  constructor(
    private readonly options: SessionOptions,
    private readonly systemEm: () => EntityManager,
  ) {}

  private em() {
    return forCompany(this.systemEm(), this.options.companyId);
  }

  async start(): Promise<void> {
    await this.options.events.status('OPENING');
    const creds = await this.options.auth.get<{ number: string }>(CREDS);
    if (creds) {
      this.state = 'connected';
      this.number = creds.number;
      await this.options.events.status('CONNECTED', { number: creds.number });
      return;
    }
    this.state = 'qrcode';
    await this.options.events.qr(`atrium-sandbox:${this.options.whatsappId}:${randomBytes(12).toString('base64url')}`);
  }

  /** Like WhatsApp's: eight letters and digits for the phone to type; the simulated phone still pairs by scan(). */
  async requestPairingCode(number: string): Promise<string> {
    if (this.state !== 'qrcode') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    if (!/^\d{8,15}$/.test(number)) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'number', message: 'not a phone number' }] });
    return randomBytes(5).toString('base64url').toUpperCase().replace(/[^A-Z0-9]/g, 'X').slice(0, 8).padEnd(8, 'Z');
  }

  /** The phone scans the QR code. */
  async scan(): Promise<{ number: string }> {
    if (this.state === 'connected') throw new AppError('ERR_CONFLICT', { reason: 'already connected' });
    if (this.state !== 'qrcode') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    const number = `55119${String(this.options.whatsappId).padStart(8, '0')}`;
    await this.options.auth.set({ [CREDS]: { number } });
    this.state = 'connected';
    this.number = number;
    await this.options.events.status('CONNECTED', { number });
    return { number };
  }

  async stop(): Promise<void> {
    this.state = 'closed';
  }

  async logout(): Promise<void> {
    this.state = 'closed';
    await this.options.auth.clear();
    await this.options.events.status('DISCONNECTED', { unlinked: true });
  }

  private assertConnected() {
    if (this.state !== 'connected') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  }

  canSend(): boolean {
    return this.state === 'connected';
  }

  /**
   * The phone receives a message. One with an id it already has is the same message (as on WhatsApp, a
   * resend with the same id is not shown twice), so the copy is kept once.
   */
  private async record(id: string | undefined, to: ChannelPeer, fields: Partial<SandboxOutbox>): Promise<SentMessage> {
    this.assertConnected();
    if (this.fault && this.fault.count > 0) {
      this.fault.count -= 1;
      throw new AppError(this.fault.code);
    }
    const wid = id ?? `SBX${randomBytes(10).toString('hex').toUpperCase()}`;
    await this.em().execute(
      `insert into sandbox_outbox (company_id, whatsapp_id, wid, "to", body, media_type, media_name, quoted_id, deleted, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, false, now())
       on conflict (whatsapp_id, wid) do update set deliveries = sandbox_outbox.deliveries + 1`,
      [
        this.options.companyId,
        this.options.whatsappId,
        wid,
        to.number ?? to.lid ?? '',
        fields.body ?? '',
        fields.mediaType ?? null,
        fields.mediaName ?? null,
        fields.quotedId ?? null,
      ],
    );
    return { id: wid, timestamp: new Date() };
  }

  sendText(message: OutboundText): Promise<SentMessage> {
    return this.record(message.id, message.to, { body: message.text, quotedId: message.quoted?.id ?? null });
  }

  async sendPresence(to: ChannelPeer, presence: 'composing' | 'recording' | 'paused'): Promise<void> {
    this.assertConnected();
    this.presences.push({ to: to.number ?? to.lid ?? '', presence, at: new Date() });
  }

  /** The phone's own record is the truth of what it received. */
  async sentIds(ids: string[]): Promise<string[] | null> {
    if (!this.recordsSends) return null;
    if (ids.length === 0) return [];
    const rows = await this.em().find(SandboxOutbox, { whatsappId: this.options.whatsappId, wid: { $in: ids } }, { fields: ['wid'] });
    return rows.map((r) => r.wid);
  }

  sendMedia(message: OutboundMedia): Promise<SentMessage> {
    return this.record(message.id, message.to, {
      body: message.caption ?? '',
      mediaType: message.voiceNote ? 'audio' : mediaTypeOf(message.mimetype),
      mediaName: message.filename,
      quotedId: message.quoted?.id ?? null,
    });
  }

  async deleteMessage(_to: ChannelPeer, id: string): Promise<void> {
    this.assertConnected();
    await this.em().nativeUpdate(SandboxOutbox, { whatsappId: this.options.whatsappId, wid: id }, { deleted: true });
  }

  /** The read receipts the customers' phones were sent, in order (the simulated phone shows no blue ticks). */
  readonly receipts: { to: string; ids: string[] }[] = [];

  async markRead(chat: ChannelPeer, ids: { id: string }[]): Promise<void> {
    this.receipts.push({ to: chat.number ?? chat.lid ?? '', ids: ids.map((i) => i.id) });
  }

  async checkNumber(number: string): Promise<string | null> {
    // Like a real phone: nothing is checked before the QR code is scanned.
    this.assertConnected();
    const digits = number.replace(/\D/g, '');
    return /^\d{8,15}$/.test(digits) ? digits : null;
  }

  /**
   * The simulated phone hands a customer's media over with the message itself (stored at once, never
   * pending) and keeps no copy of it: there is nothing it could fetch again, so it says so honestly rather
   * than pretend. A message of a sandbox connection whose media failed stays failed.
   */
  async refetchMedia(): Promise<void> {
    this.assertConnected();
    throw new AppError('ERR_MEDIA_REFETCH_UNSUPPORTED');
  }

  /** A customer writes to the connected phone. */
  async receive(input: SandboxInbound): Promise<{ id: string }> {
    this.assertConnected();
    const id = input.id ?? `SBXIN${randomBytes(10).toString('hex').toUpperCase()}`;
    await this.options.events.message({
      id,
      fromMe: false,
      chat: { number: input.from, lid: null, name: input.name },
      body: input.body ?? '',
      mediaType: input.media ? mediaTypeOf(input.media.mimetype) : 'chat',
      media: input.media,
      quotedId: input.quotedId,
      replyId: input.replyId,
      timestamp: new Date(),
    });
    return { id };
  }

  /** The customer's phone acknowledges one of our messages. */
  async ack(id: string, ack: number): Promise<void> {
    this.assertConnected();
    await this.options.events.messageUpdate({ id, ack, fromMe: true });
  }

  get phoneNumber(): string {
    return this.number;
  }
}

export const createSandboxProvider = (systemEm: () => EntityManager): ChannelProvider => ({
  name: 'sandbox',
  simulated: true,
  // The phone's controls work through any server process: the one running the session plays them.
  commands: ['scan', 'receive', 'ack'],
  createSession: (options) => new SandboxSession(options, systemEm),
  isPaired: async (auth) => (await auth.get(CREDS)) !== null,
});
