import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgListener } from './pg-listener.js';

const CHANNEL = 'atrium_connection_wake';

/**
 * Wakes the process that runs a connection (it holds its lease, see lease.ts) from any other: an agent's
 * reply queued through one server process must not wait for the periodic sweep to reach the process whose
 * session sends it. PostgreSQL's NOTIFY carries the connection id; every process LISTENs and hands it to
 * its listeners (the outbox kicks that connection's lane, a no-op where the session does not run).
 */
export class ConnectionWakeups {
  private readonly listeners = new Set<(whatsappId: number) => void>();

  constructor(
    listener: PgListener,
    private readonly systemEm: () => EntityManager,
  ) {
    listener.on(CHANNEL, (payload) => {
      const whatsappId = Number(payload);
      if (!Number.isInteger(whatsappId)) return;
      for (const wake of this.listeners) wake(whatsappId);
    });
  }

  on(listener: (whatsappId: number) => void): void {
    this.listeners.add(listener);
  }

  /** Tells every process (this one included) that the connection has work. */
  async wake(whatsappId: number): Promise<void> {
    await this.systemEm().execute('select pg_notify(?, ?)', [CHANNEL, String(whatsappId)]);
  }
}
