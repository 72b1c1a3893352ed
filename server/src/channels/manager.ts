import type { Logger } from '../logger.js';
import { AppError } from '../errors.js';
import { LeaseLostError, type ConnectionLeases } from './lease.js';
import type { ConnectionWakeups } from './wakeups.js';
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

interface LiveSession {
  session: ChannelSession;
  provider: string;
  companyId: number;
  /** Off once the lease is lost: the session's status reports and key writes are refused from then on. */
  gate: { owned: boolean };
}

/**
 * Holds the live session of every connection this instance runs. A session is a socket to WhatsApp and
 * lives in one process; everything else about it (status, credentials, messages) is in the database.
 *
 * With `leases` (the server always has them), a session runs only under this process's lease on its
 * connection: a start while another process holds it starts nothing here. The keeper renews the leases,
 * takes over the connections whose owner stopped renewing (it died) or handed them over (it is shutting
 * down), and stops a session whose lease another process took (this one was frozen or cut off) without
 * letting it write its keys or its status again. A session stopped on purpose (stop, logout) gives its
 * lease up: nobody takes it over.
 */
export class ChannelManager {
  private readonly sessions = new Map<number, LiveSession>();
  private keeper: NodeJS.Timeout | undefined;
  private keeping = false;
  private tickRunning: Promise<void> | undefined;

  constructor(
    private readonly providers: Record<string, ChannelProvider>,
    private readonly wiring: {
      events: (connection: ConnectionRef) => ChannelEvents;
      auth: (connection: ConnectionRef) => AuthStore;
      logger: Logger;
      leases?: ConnectionLeases;
      wakeups?: ConnectionWakeups;
    },
  ) {}

  /**
   * Work for a connection (a queued send): `local` is told here when this process runs it, else the
   * process that does is woken (see wakeups.ts). Without wake-ups (a single process), always here.
   */
  wakeOwner(whatsappId: number, local: () => void): void {
    const wakeups = this.wiring.wakeups;
    if (!wakeups || this.sessions.has(whatsappId)) {
      local();
      return;
    }
    void wakeups.wake(whatsappId).catch((err: unknown) => this.wiring.logger.warn({ err, whatsappId }, 'wake-up failed'));
  }

  /** Another process woke a connection this one may run. */
  onWake(listener: (whatsappId: number) => void): void {
    this.wiring.wakeups?.on((whatsappId) => {
      if (this.sessions.has(whatsappId)) listener(whatsappId);
    });
  }

  /** Starts renewing leases and taking over connections whose owner died, every `renewMs`. */
  startKeeping(): void {
    if (!this.wiring.leases || this.keeping) return;
    this.keeping = true;
    this.scheduleTick();
  }

  /** Stops the keeper without giving the leases up: what a frozen or cut-off process does (tests). */
  async suspendKeeping(): Promise<void> {
    this.keeping = false;
    clearTimeout(this.keeper);
    await this.tickRunning;
  }

  private scheduleTick(): void {
    if (!this.keeping || !this.wiring.leases) return;
    this.keeper = setTimeout(() => {
      this.tickRunning = this.keepLeases()
        .catch((err: unknown) => this.wiring.logger.error({ err }, 'lease renewal failed'))
        .finally(() => {
          this.tickRunning = undefined;
          this.scheduleTick();
        });
    }, this.wiring.leases.renewMs);
    this.keeper.unref();
  }

  /** One round of the keeper: renew, give up what was taken over, take over what was left. */
  async keepLeases(): Promise<void> {
    const leases = this.wiring.leases;
    if (!leases) return;
    const held = [...this.sessions.keys()];
    const kept = await leases.renew(held);
    for (const id of held) {
      if (!kept.has(id)) await this.serially(id, () => this.loseNow(id));
    }
    for (const ref of await leases.expired()) {
      if (this.sessions.has(ref.id) || !this.hasProvider(ref.provider)) continue;
      await this.start(ref).catch((err: unknown) => this.wiring.logger.error({ err, whatsappId: ref.id }, 'session takeover failed'));
    }
  }

  /** Another process holds the lease now: the socket stops here, with no key or status written. */
  private async loseNow(whatsappId: number): Promise<void> {
    const live = this.sessions.get(whatsappId);
    if (!live) return;
    live.gate.owned = false;
    this.sessions.delete(whatsappId);
    this.wiring.logger.warn({ whatsappId }, 'connection lease taken over by another process; session stopped here');
    await live.session.stop().catch((err: unknown) => this.wiring.logger.warn({ err }, 'stop failed'));
  }

  /** Which of these connections another process runs now (none without leases). */
  async runElsewhere(ids: number[]): Promise<Set<number>> {
    return this.wiring.leases ? this.wiring.leases.heldElsewhere(ids) : new Set();
  }

  /** Whether this process runs the connection's session now. */
  runs(whatsappId: number): boolean {
    return this.sessions.has(whatsappId);
  }

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

  /**
   * Starts the connection's session (replacing a running one). Undefined when another process holds its
   * lease: that process runs it, and this one takes over if it dies.
   */
  start(connection: ConnectionRef): Promise<ChannelSession | undefined> {
    return this.serially(connection.id, () => this.startNow(connection));
  }

  /** Takes (or keeps) the connection's lease; false while another process holds it. */
  private async lease(connection: ConnectionRef): Promise<boolean> {
    const leases = this.wiring.leases;
    if (!leases) return true;
    if (await leases.acquire(connection.id)) return true;
    this.wiring.logger.debug({ whatsappId: connection.id }, 'connection run by another process');
    return false;
  }

  private async startNow(connection: ConnectionRef): Promise<ChannelSession | undefined> {
    const provider = this.providers[connection.provider];
    if (!provider) throw new AppError('ERR_WAPP_NOT_INITIALIZED', { reason: `provider ${connection.provider} is not enabled` });
    await this.stopNow(connection.id);
    if (!(await this.lease(connection))) return undefined;
    const logger = this.wiring.logger.child({ whatsappId: connection.id, provider: connection.provider });
    const gate = { owned: true };
    const events = this.wiring.events(connection);
    const auth = this.wiring.auth(connection);
    const session = guarded(
      provider.createSession({
        whatsappId: connection.id,
        companyId: connection.companyId,
        // A session that lost its lease says nothing more about the connection's state: the owner does.
        events: {
          ...events,
          qr: (code) => (gate.owned ? events.qr(code) : undefined),
          status: (status, info) => (gate.owned ? (info ? events.status(status, info) : events.status(status)) : undefined),
        },
        auth: { ...auth, set: (entries) => (gate.owned ? auth.set(entries) : Promise.reject(new LeaseLostError(connection.id))) },
        logger,
      }),
      logger,
    );
    this.sessions.set(connection.id, { session, provider: connection.provider, companyId: connection.companyId, gate });
    await session.start();
    return session;
  }

  /** Forgets the credentials and starts again: a new QR code. */
  async restartFresh(connection: ConnectionRef): Promise<void> {
    await this.serially(connection.id, async () => {
      await this.stopNow(connection.id);
      // Never under a session another process runs: its keys are in use.
      if (!(await this.lease(connection))) return;
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
      await this.release(connection.id);
    });
  }

  /** Stops the session and gives its lease up, so another process may run it at once. */
  stop(whatsappId: number): Promise<void> {
    return this.serially(whatsappId, async () => {
      await this.stopNow(whatsappId);
      await this.release(whatsappId);
    });
  }

  private async release(whatsappId: number): Promise<void> {
    await this.wiring.leases?.release(whatsappId).catch((err: unknown) => this.wiring.logger.warn({ err, whatsappId }, 'lease release failed'));
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

  /**
   * The process is shutting down: every session stops and its lease is handed over (expired at once), so
   * another process running (a rolling deploy's next one) takes the connections over at its next round.
   */
  async stopAll(): Promise<void> {
    this.stopAllController.abort();
    this.stopAllController = new AbortController();
    await this.suspendKeeping();
    await Promise.all(
      [...this.sessions.keys()].map((id) =>
        this.serially(id, async () => {
          await this.stopNow(id);
          await this.wiring.leases?.handOver(id).catch((err: unknown) => this.wiring.logger.warn({ err, whatsappId: id }, 'lease hand-over failed'));
        }),
      ),
    );
  }
}
