import pg from 'pg';
import type { Logger } from '../logger.js';

/**
 * PostgreSQL's LISTEN on a connection of its own, for what server processes tell each other through the
 * database (NOTIFY): the connection wake-ups and the requests to a session's owner. A lost connection is
 * opened again a second later; what was notified meanwhile is missed (each user has its own remedy: the
 * outbox sweep, a request's timeout).
 */
export class PgListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /** Hears `channel`'s notifications; channels are listened to from the next start() on. */
  on(channel: string, handler: (payload: string) => void): void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    let set = this.handlers.get(channel);
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
  }

  /** Whether the listening connection is up now (a notification sent now would be heard). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    let ended = false;
    const again = () => {
      if (ended) return;
      ended = true;
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.retry = setTimeout(() => void this.start().catch((err: unknown) => this.logger.warn({ err }, 'database listener failed')), 1_000);
      this.retry.unref();
    };
    client.on('error', (err) => {
      this.logger.warn({ err }, 'database listener lost its connection');
      again();
    });
    client.on('end', again);
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      again();
      throw err;
    }
    if (this.stopped) {
      ended = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
