import type { Logger } from '../logger.js';
import { AppError } from '../errors.js';
import { LeaseLostError, type ConnectionLeases } from './lease.js';
import type { OwnerCommand, OwnerNotice, OwnerRequest, OwnerRequests } from './owner-requests.js';
import type { ConnectionWakeups } from './wakeups.js';
import type { AuthStore, ChannelEvents, ChannelPeer, ChannelProvider, ChannelSession } from './types.js';

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
  /** When its lease was last known good (performance.now(), taken before the renewal was asked). */
  renewedAt: number;
}

/** A monotonic clock: a lease's lifetime is not shortened or stretched by the wall clock being set. */
const clock = () => performance.now();

/**
 * A connection's live session as a caller uses it, wherever it runs: in this process, or in the process
 * that holds its lease, which runs each call and answers through PostgreSQL (owner-requests.ts). A remote
 * call fails with ERR_WAPP_OWNER_UNREACHABLE when that process does not answer in time.
 */
export interface ReachedSession {
  /** The session runs in this process. */
  readonly here: boolean;
  canSend(): Promise<boolean>;
  deleteMessage(to: ChannelPeer, id: string, fromMe: boolean, raw?: unknown): Promise<void>;
  markRead(chat: ChannelPeer, ids: { id: string; participant?: string; raw?: unknown }[]): Promise<void>;
  checkNumber(number: string): Promise<string | null>;
  /** ERR_WAPP_PROVIDER_DISABLED for a provider without pairing codes. */
  requestPairingCode(number: string): Promise<string>;
  /** ERR_MEDIA_REFETCH_UNSUPPORTED for a provider that cannot fetch a media again. */
  refetchMedia(id: string, raw: unknown): Promise<void>;
  /** One of its provider's own commands (ChannelProvider.commands: the sandbox phone's scan, receive, ack). */
  command<T = unknown>(name: string, ...args: unknown[]): Promise<T>;
}

const reached = (here: boolean, call: (method: string, args: unknown[]) => Promise<unknown>): ReachedSession => ({
  here,
  canSend: async () => (await call('canSend', [])) === true,
  deleteMessage: async (...args) => void (await call('deleteMessage', args)),
  markRead: async (...args) => void (await call('markRead', args)),
  checkNumber: async (number) => (await call('checkNumber', [number])) as string | null,
  requestPairingCode: async (number) => (await call('requestPairingCode', [number])) as string,
  refetchMedia: async (...args) => void (await call('refetchMedia', args)),
  command: async <T>(name: string, ...args: unknown[]) => (await call(name, args)) as T,
});

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
 *
 * What needs the live session (a restart, a logout, a delete for everyone, a pairing code...) asked of a
 * process that does not run it goes to the one that does (`requests`); what nobody runs is done here.
 */
export class ChannelManager {
  private readonly sessions = new Map<number, LiveSession>();
  private keeper: NodeJS.Timeout | undefined;
  private keeping = false;
  private tickRunning: Promise<void> | undefined;
  /** Connections closed here because their lease could not be renewed: run again once renewals get through. */
  private readonly lapsed = new Map<number, ConnectionRef>();

  constructor(
    private readonly providers: Record<string, ChannelProvider>,
    private readonly wiring: {
      events: (connection: ConnectionRef) => ChannelEvents;
      auth: (connection: ConnectionRef) => AuthStore;
      logger: Logger;
      leases?: ConnectionLeases;
      wakeups?: ConnectionWakeups;
      requests?: OwnerRequests;
      /**
       * Runs once this process holds the connection's lease, before its session starts: what a former run
       * left half done (the inbound messages it accepted and did not finish) is for the new owner alone.
       */
      beforeStart?: (connection: ConnectionRef) => Promise<void>;
    },
  ) {
    wiring.requests?.serve((request) => this.serveOwnerRequest(request));
    wiring.requests?.onNotice((notice) => void this.noticed(notice));
  }

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

  /**
   * Every `renewMs`: the sessions whose lease went unrenewed too long are closed (even while a renewal
   * hangs on a database that does not answer), then a round of the keeper runs unless one still does.
   */
  private scheduleTick(): void {
    if (!this.keeping || !this.wiring.leases) return;
    this.keeper = setTimeout(() => {
      this.closeLapsed();
      if (this.tickRunning) {
        this.scheduleTick();
        return;
      }
      this.tickRunning = this.keepLeases()
        .catch((err: unknown) => this.wiring.logger.error({ err }, 'lease renewal failed'))
        .finally(() => {
          this.tickRunning = undefined;
        });
      this.scheduleTick();
    }, this.wiring.leases.renewMs);
    this.keeper.unref();
  }

  /**
   * A session whose lease this process could not renew (the database down, unreachable or stuck) is
   * closed before the lease can expire: another process takes an expired lease over, and two sockets on
   * one number knock each other off and corrupt its keys. Closed once unrenewed for the lease's lifetime
   * less a round of the keeper (this check runs every round), so the socket is gone when the lease ends.
   * Nothing is written for it (the gate closes): the database may say another process runs it by then.
   */
  private closeLapsed(): void {
    const leases = this.wiring.leases;
    if (!leases) return;
    const limit = leases.ttlMs - leases.renewMs;
    for (const [id, live] of this.sessions) {
      if (clock() - live.renewedAt < limit) continue;
      live.gate.owned = false;
      void this.serially(id, async () => {
        if (this.sessions.get(id) !== live) return;
        this.sessions.delete(id);
        this.lapsed.set(id, { id, companyId: live.companyId, provider: live.provider });
        this.wiring.logger.warn({ whatsappId: id }, 'connection lease could not be renewed in time; session closed here');
        await live.session.stop().catch((err: unknown) => this.wiring.logger.warn({ err }, 'stop failed'));
      });
    }
  }

  /** One round of the keeper: renew, give up what was taken over, take over what was left. */
  async keepLeases(): Promise<void> {
    const leases = this.wiring.leases;
    if (!leases) return;
    const held = [...this.sessions.keys()];
    const asked = clock();
    const kept = await leases.renew(held);
    for (const id of kept) {
      const live = this.sessions.get(id);
      if (live) live.renewedAt = Math.max(live.renewedAt, asked);
    }
    const lost = held.filter((id) => !kept.has(id));
    // A lease gone with its connection (deleted, perhaps through another process): the phone is logged out.
    const deleted = lost.length > 0 ? await leases.deleted(lost) : new Set<number>();
    for (const id of lost) await this.serially(id, () => this.loseNow(id, deleted.has(id)));
    for (const ref of await leases.expired()) {
      if (this.sessions.has(ref.id) || !this.hasProvider(ref.provider)) continue;
      await this.start(ref).catch((err: unknown) => this.wiring.logger.error({ err, whatsappId: ref.id }, 'session takeover failed'));
    }
    // Renewals get through again: what was closed for want of them runs again here, unless another process
    // took it over meanwhile (expired() lists only other processes' leases: alone, nobody would restart it).
    for (const [id, ref] of this.lapsed) {
      this.lapsed.delete(id);
      if (this.sessions.has(id)) continue;
      await this.start(ref).catch((err: unknown) => this.wiring.logger.error({ err, whatsappId: id }, 'session restart after a lapsed lease failed'));
    }
  }

  /**
   * Another process holds the lease now: the socket stops here, with no key or status written. A connection
   * deleted meanwhile (its lease went with it) has its phone logged out instead, its keys gone already.
   */
  private async loseNow(whatsappId: number, deleted = false): Promise<void> {
    const live = this.sessions.get(whatsappId);
    if (!live) return;
    live.gate.owned = false;
    this.sessions.delete(whatsappId);
    if (deleted) {
      this.wiring.logger.info({ whatsappId }, 'connection deleted; its phone is logged out');
      await live.session.logout().catch((err: unknown) => this.wiring.logger.warn({ err }, 'logout failed'));
      return;
    }
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

  /** The process running the connection's session now (its lease owner's name; this one's when here), or null. */
  async whereRuns(whatsappId: number): Promise<string | null> {
    const leases = this.wiring.leases;
    if (!leases) return this.sessions.has(whatsappId) ? 'here' : null;
    if (this.sessions.has(whatsappId)) return leases.owner;
    return leases.ownerOf(whatsappId);
  }

  /** Whether some process (this one or another) runs the connection's session now. */
  async runsAnywhere(whatsappId: number): Promise<boolean> {
    return (await this.whereRuns(whatsappId)) !== null;
  }

  /** The other process that runs the connection, if one does (and answers requests). */
  private async ownerElsewhere(whatsappId: number, known?: string | null): Promise<string | undefined> {
    const leases = this.wiring.leases;
    if (!leases || !this.wiring.requests || this.sessions.has(whatsappId)) return undefined;
    const owner = known === undefined ? await leases.ownerOf(whatsappId) : known;
    return owner && owner !== leases.owner ? owner : undefined;
  }

  private ask(owner: string, connection: ConnectionRef, command: OwnerCommand): Promise<unknown> {
    return this.wiring.requests!.ask(owner, { whatsappId: connection.id, companyId: connection.companyId, provider: connection.provider, command });
  }

  /**
   * The connection's live session, here or in the process that runs it; undefined when no process runs it
   * (or it is another company's).
   */
  async reach(connection: { id: number; companyId: number }): Promise<ReachedSession | undefined> {
    const live = this.sessions.get(connection.id);
    if (live) return live.companyId === connection.companyId ? reached(true, (method, args) => this.callHere(live, method, args)) : undefined;
    const owner = await this.ownerElsewhere(connection.id);
    if (!owner) return undefined;
    const ref = { ...connection, provider: '' };
    return reached(false, (method, args) => this.ask(owner, ref, { kind: 'call', method, args }));
  }

  /** A call of a session this process runs, by name (the same for a local caller and a remote one). */
  private async callHere(live: LiveSession, method: string, args: unknown[]): Promise<unknown> {
    const session = live.session;
    switch (method) {
      case 'canSend':
        return session.canSend();
      case 'deleteMessage':
        return session.deleteMessage(...(args as Parameters<ChannelSession['deleteMessage']>));
      case 'markRead':
        return session.markRead(...(args as Parameters<ChannelSession['markRead']>));
      case 'checkNumber':
        return session.checkNumber(String(args[0]));
      case 'requestPairingCode':
        if (!session.requestPairingCode) throw new AppError('ERR_WAPP_PROVIDER_DISABLED', { provider: live.provider });
        return session.requestPairingCode(String(args[0]));
      case 'refetchMedia':
        if (!session.refetchMedia) throw new AppError('ERR_MEDIA_REFETCH_UNSUPPORTED');
        return session.refetchMedia(String(args[0]), args[1]);
      default: {
        // Only what the provider lists as its commands is callable by name.
        const command = (session as unknown as Record<string, unknown>)[method];
        if (!this.providers[live.provider]?.commands?.includes(method) || typeof command !== 'function') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
        return (command as (...a: unknown[]) => Promise<unknown>).apply(session, args);
      }
    }
  }

  /** Another process asks this one, the connection's owner, to run a command. */
  private async serveOwnerRequest(request: OwnerRequest): Promise<unknown> {
    const ref = { id: request.whatsappId, companyId: request.companyId, provider: request.provider };
    const { command } = request;
    switch (command.kind) {
      case 'restart':
        await this.start(ref);
        return null;
      case 'restartFresh':
        await this.serially(ref.id, () => this.restartFreshNow(ref));
        return null;
      case 'logout':
        await this.serially(ref.id, () => this.logoutNow(ref));
        return null;
      case 'call': {
        const live = this.sessions.get(ref.id);
        if (!live || live.companyId !== ref.companyId) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
        return this.callHere(live, command.method, command.args);
      }
    }
  }

  private async noticed(notice: OwnerNotice): Promise<void> {
    if (notice.kind === 'stopCompany') await this.stopCompanyHere(notice.companyId).catch((err: unknown) => this.wiring.logger.warn({ err }, 'stopping a company’s sessions failed'));
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
    this.lapsed.delete(connection.id);
    const leasedAt = clock();
    if (!(await this.lease(connection))) return undefined;
    await this.wiring.beforeStart?.(connection).catch((err: unknown) => this.wiring.logger.error({ err, whatsappId: connection.id }, 'taking the connection up failed'));
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
        auth: {
          ...auth,
          set: (entries) => (gate.owned ? auth.set(entries) : Promise.reject(new LeaseLostError(connection.id))),
          clear: () => (gate.owned ? auth.clear() : Promise.reject(new LeaseLostError(connection.id))),
        },
        logger,
        holdsLease: async () => gate.owned && (!this.wiring.leases || (await this.wiring.leases.ownerOf(connection.id)) === this.wiring.leases.owner),
      }),
      logger,
    );
    this.sessions.set(connection.id, { session, provider: connection.provider, companyId: connection.companyId, gate, renewedAt: leasedAt });
    await session.start();
    return session;
  }

  /**
   * POST /whatsappsession: the session connects again with its stored credentials, in the process that
   * runs it (here when none does).
   */
  async restart(connection: ConnectionRef): Promise<void> {
    const owner = await this.ownerElsewhere(connection.id);
    if (owner) await this.ask(owner, connection, { kind: 'restart' });
    else await this.start(connection);
  }

  /** Forgets the credentials and starts again: a new QR code. Done by the process that runs it (here when none does). */
  async restartFresh(connection: ConnectionRef): Promise<void> {
    const owner = await this.ownerElsewhere(connection.id);
    if (owner) await this.ask(owner, connection, { kind: 'restartFresh' });
    else await this.serially(connection.id, () => this.restartFreshNow(connection));
  }

  private async restartFreshNow(connection: ConnectionRef): Promise<void> {
    await this.stopNow(connection.id);
    // Never under a session another process runs: its keys are in use.
    if (!(await this.lease(connection))) return;
    await this.wiring.auth(connection).clear();
    await this.startNow(connection);
  }

  /**
   * Logs the phone out and forgets the credentials, in the process that runs the session (here when none
   * does). `ranBy`: the process that ran it, read before its connection was deleted (the lease went with it).
   */
  async logout(connection: ConnectionRef, options: { ranBy?: string | null } = {}): Promise<void> {
    const owner = await this.ownerElsewhere(connection.id, options.ranBy);
    if (owner) await this.ask(owner, connection, { kind: 'logout' });
    else await this.serially(connection.id, () => this.logoutNow(connection));
  }

  private async logoutNow(connection: ConnectionRef): Promise<void> {
    this.lapsed.delete(connection.id);
    const live = this.sessions.get(connection.id);
    this.sessions.delete(connection.id);
    if (live) await live.session.logout().catch((err: unknown) => this.wiring.logger.warn({ err }, 'logout failed'));
    // The keys are cleared under the lease (a process that starts it meanwhile would be using them).
    else await this.lease(connection);
    try {
      await this.wiring.auth(connection).clear();
    } catch (err) {
      if (!(err instanceof LeaseLostError)) throw err;
      throw new AppError('ERR_CONFLICT', { reason: 'the connection was started by another server process meanwhile' });
    } finally {
      await this.release(connection.id);
    }
  }

  /** Stops the session and gives its lease up, so another process may run it at once. */
  stop(whatsappId: number): Promise<void> {
    return this.serially(whatsappId, async () => {
      this.lapsed.delete(whatsappId);
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

  /** Stops every session of a company (it was deleted), in every process. */
  async stopCompany(companyId: number): Promise<void> {
    await this.wiring.requests?.announce({ kind: 'stopCompany', companyId }).catch((err: unknown) => this.wiring.logger.warn({ err }, 'telling the other processes failed'));
    await this.stopCompanyHere(companyId);
  }

  private async stopCompanyHere(companyId: number): Promise<void> {
    for (const [id, ref] of this.lapsed) if (ref.companyId === companyId) this.lapsed.delete(id);
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
    this.lapsed.clear();
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
