import type { Logger } from '../logger.js';
import { AppError } from '../errors.js';
import type { AuthStore, ChannelEvents, ChannelProvider, ChannelSession } from './types.js';

/** The calls whose failure the caller reports to the agent as the channel's (ERR_SENDING_WAPP_MSG...). */
const CHANNEL_CALLS = new Set<PropertyKey>(['sendText', 'sendMedia', 'deleteMessage']);

/**
 * A provider reports a failure of its network as an AppError (ERR_SENDING_WAPP_MSG, ERR_WAPP_NOT_INITIALIZED...);
 * anything else escaping a send is our own fault (a database write, a bug) and must never reach the
 * agent as "WhatsApp did not take it": it becomes a logged internal error.
 */
const guarded = (session: ChannelSession, logger: Logger): ChannelSession =>
  new Proxy(session, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (!CHANNEL_CALLS.has(key)) return value.bind(target);
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (err) {
          if (err instanceof AppError) throw err;
          logger.error({ err, call: String(key) }, 'channel call failed inside the server');
          throw new AppError('ERR_INTERNAL_SERVER_ERROR');
        }
      };
    },
  });

export interface ConnectionRef {
  id: number;
  companyId: number;
  provider: string;
}

/**
 * Holds the live session of every connection this instance runs. A session is a socket to WhatsApp and
 * lives in one process; everything else about it (status, credentials, messages) is in the database.
 */
export class ChannelManager {
  private readonly sessions = new Map<number, { session: ChannelSession; provider: string; companyId: number }>();

  constructor(
    private readonly providers: Record<string, ChannelProvider>,
    private readonly wiring: {
      events: (connection: ConnectionRef) => ChannelEvents;
      auth: (connection: ConnectionRef) => AuthStore;
      logger: Logger;
    },
  ) {}

  private stopAllController = new AbortController();

  /** Aborted by the next stopAll(): work planned before it (a staggered boot) gives up. */
  get stopSignal(): AbortSignal {
    return this.stopAllController.signal;
  }

  /** Whether the connection has a linked phone; a provider that cannot tell counts as paired. */
  async isPaired(connection: ConnectionRef): Promise<boolean> {
    const provider = this.providers[connection.provider];
    if (!provider?.isPaired) return true;
    return provider.isPaired(this.wiring.auth(connection));
  }

  hasProvider(name: string): boolean {
    return name in this.providers;
  }

  /** The provider simulates its network (no real socket to pace at boot). */
  isSimulated(name: string): boolean {
    return this.providers[name]?.simulated === true;
  }

  providerNames(): string[] {
    return Object.keys(this.providers);
  }

  /**
   * One change at a time per connection: two starts at once (a double click, a start racing a restart)
   * would otherwise both create a session, and the first would run on unseen, a second socket to WhatsApp.
   */
  private readonly changing = new Map<number, Promise<unknown>>();

  private serially<T>(whatsappId: number, change: () => Promise<T>): Promise<T> {
    const previous = this.changing.get(whatsappId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(change);
    this.changing.set(whatsappId, next);
    void next
      .catch(() => undefined)
      .then(() => {
        if (this.changing.get(whatsappId) === next) this.changing.delete(whatsappId);
      });
    return next;
  }

  /** Starts the connection's session (replacing a running one). */
  start(connection: ConnectionRef): Promise<ChannelSession> {
    return this.serially(connection.id, () => this.startNow(connection));
  }

  private async startNow(connection: ConnectionRef): Promise<ChannelSession> {
    const provider = this.providers[connection.provider];
    if (!provider) throw new AppError('ERR_WAPP_NOT_INITIALIZED', { reason: `provider ${connection.provider} is not enabled` });
    await this.stopNow(connection.id);
    const logger = this.wiring.logger.child({ whatsappId: connection.id, provider: connection.provider });
    const session = guarded(
      provider.createSession({
        whatsappId: connection.id,
        companyId: connection.companyId,
        events: this.wiring.events(connection),
        auth: this.wiring.auth(connection),
        logger,
      }),
      logger,
    );
    this.sessions.set(connection.id, { session, provider: connection.provider, companyId: connection.companyId });
    await session.start();
    return session;
  }

  /** Forgets the credentials and starts again: a new QR code. */
  async restartFresh(connection: ConnectionRef): Promise<void> {
    await this.serially(connection.id, async () => {
      await this.stopNow(connection.id);
      await this.wiring.auth(connection).clear();
      await this.startNow(connection);
    });
  }

  logout(connection: ConnectionRef): Promise<void> {
    return this.serially(connection.id, async () => {
      const live = this.sessions.get(connection.id);
      this.sessions.delete(connection.id);
      if (live) await live.session.logout().catch((err: unknown) => this.wiring.logger.warn({ err }, 'logout failed'));
      await this.wiring.auth(connection).clear();
    });
  }

  stop(whatsappId: number): Promise<void> {
    return this.serially(whatsappId, () => this.stopNow(whatsappId));
  }

  private async stopNow(whatsappId: number): Promise<void> {
    const live = this.sessions.get(whatsappId);
    this.sessions.delete(whatsappId);
    if (live) await live.session.stop().catch((err: unknown) => this.wiring.logger.warn({ err }, 'stop failed'));
  }

  /** The live session, or ERR_WAPP_NOT_INITIALIZED. */
  get(whatsappId: number): ChannelSession {
    const live = this.sessions.get(whatsappId);
    if (!live) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return live.session;
  }

  find(whatsappId: number): ChannelSession | undefined {
    return this.sessions.get(whatsappId)?.session;
  }

  /** The live session of a connection of this company; undefined for another company's. */
  findOfCompany(whatsappId: number, companyId: number): ChannelSession | undefined {
    const live = this.sessions.get(whatsappId);
    return live?.companyId === companyId ? live.session : undefined;
  }

  /** Stops every session of a company (it was deleted). */
  async stopCompany(companyId: number): Promise<void> {
    const ids = [...this.sessions].filter(([, live]) => live.companyId === companyId).map(([id]) => id);
    await Promise.all(ids.map((id) => this.stop(id)));
  }

  async stopAll(): Promise<void> {
    this.stopAllController.abort();
    this.stopAllController = new AbortController();
    await Promise.all([...this.sessions.keys()].map((id) => this.stop(id)));
  }
}
