import pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';

const CHANNEL = 'atrium_connection_wake';

/**
 * Wakes the process that runs a connection (it holds its lease, see lease.ts) from any other: an agent's
 * reply queued through one server process must not wait for the periodic sweep to reach the process whose
 * session sends it. PostgreSQL's NOTIFY carries the connection id; every process LISTENs and hands it to
 * its listeners (the outbox kicks that connection's lane, a no-op where the session does not run).
 */
export class ConnectionWakeups {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(whatsappId: number) => void>();

  constructor(
    private readonly databaseUrl: string,
    private readonly systemEm: () => EntityManager,
    private readonly logger: Logger,
  ) {}

  on(listener: (whatsappId: number) => void): void {
    this.listeners.add(listener);
  }

  /** Listens (on a connection of its own); a lost connection is opened again a second later. */
  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    const again = () => {
      if (this.client !== client) return;
      this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.retry = setTimeout(() => void this.start().catch((err: unknown) => this.logger.warn({ err }, 'wake-up listener failed')), 1_000);
      this.retry.unref();
    };
    client.on('error', (err) => {
      this.logger.warn({ err }, 'wake-up listener lost its connection');
      again();
    });
    client.on('end', again);
    client.on('notification', (message) => {
      const whatsappId = Number(message.payload);
      if (!Number.isInteger(whatsappId)) return;
      for (const listener of this.listeners) listener(whatsappId);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      again();
      throw err;
    }
  }

  /** Tells every process (this one included) that the connection has work. */
  async wake(whatsappId: number): Promise<void> {
    await this.systemEm().execute('select pg_notify(?, ?)', [CHANNEL, String(whatsappId)]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
