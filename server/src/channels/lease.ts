import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One owner per session. A connection's session (a socket to WhatsApp and the signal keys it writes) must
 * run in one server process only: two would knock each other off (440) and both write the same keys,
 * corrupting the session. Each process takes a lease in PostgreSQL (table connection_leases) for every
 * connection it runs and renews it; a process that dies stops renewing, its leases expire and another
 * process takes them over. Times are the database's (`now()`), so the processes' clocks do not matter.
 */
export interface LeaseOptions {
  /** How long a lease lasts without renewal (default 30 s): how long a dead process's sessions stay down. */
  ttlMs?: number;
  /** How often the leases are renewed and expired ones looked for (default a third of ttlMs). */
  renewMs?: number;
  /** This process's name in the table (default: host, pid and a random suffix). */
  owner?: string;
}

export const newOwnerName = () => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * An owner that certainly died: a process of this host (same name) that no longer runs, or an earlier life
 * of this very pid (a container restarted, a server restarted after a crash). Its leases need not expire.
 */
export const isDeadOwner = (owner: string, self: string): boolean => {
  const [host, pidText] = owner.split(':');
  const pid = Number(pidText);
  if (owner === self || host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
};

export class LeaseLostError extends Error {
  constructor(whatsappId: number) {
    super(`the lease of connection ${whatsappId} is held by another process`);
    this.name = 'LeaseLostError';
  }
}

export class ConnectionLeases {
  readonly owner: string;
  readonly ttlMs: number;
  readonly renewMs: number;

  constructor(
    private readonly systemEm: () => EntityManager,
    options: LeaseOptions = {},
  ) {
    this.owner = options.owner ?? newOwnerName();
    this.ttlMs = options.ttlMs ?? 30_000;
    this.renewMs = options.renewMs ?? Math.max(100, Math.floor(this.ttlMs / 3));
  }

  private execute<T extends object>(sql: string, params: unknown[]): Promise<T[]> {
    return this.systemEm().getConnection().execute<T[]>(sql, params, 'all');
  }

  /**
   * Takes the lease when it is free, expired or already ours; false while another process holds it. A
   * takeover waits for the former owner's key write in progress (it holds the row, see `fence`).
   */
  async acquire(whatsappId: number): Promise<boolean> {
    const rows = await this.execute<{ whatsapp_id: number }>(
      `insert into connection_leases (whatsapp_id, owner, expires_at)
       select w.id, ?, now() + make_interval(secs => ?) from whatsapps w where w.id = ?
       on conflict (whatsapp_id) do update set owner = excluded.owner, expires_at = excluded.expires_at
         where connection_leases.owner = excluded.owner or connection_leases.expires_at <= now()
       returning whatsapp_id`,
      [this.owner, this.ttlMs / 1000, whatsappId],
    );
    if (rows.length > 0) return true;
    // Held: by a process that crashed on this host (this server restarting), it is ours at once.
    const [held] = await this.execute<{ owner: string }>(`select owner from connection_leases where whatsapp_id = ?`, [whatsappId]);
    if (!held || !isDeadOwner(held.owner, this.owner)) return false;
    const taken = await this.execute<{ whatsapp_id: number }>(
      `update connection_leases set owner = ?, expires_at = now() + make_interval(secs => ?)
       where whatsapp_id = ? and owner = ? returning whatsapp_id`,
      [this.owner, this.ttlMs / 1000, whatsappId, held.owner],
    );
    return taken.length > 0;
  }

  /** Extends the leases still ours among `ids`; answers those (a missing one was taken over). */
  async renew(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.execute<{ whatsapp_id: number }>(
      `update connection_leases set expires_at = now() + make_interval(secs => ?)
       where owner = ? and whatsapp_id = any(?::int[]) returning whatsapp_id`,
      [this.ttlMs / 1000, this.owner, `{${ids.join(',')}}`],
    );
    return new Set(rows.map((r) => Number(r.whatsapp_id)));
  }

  /** Which of these connections another process runs now (a live lease not ours). */
  async heldElsewhere(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.execute<{ whatsapp_id: number }>(
      `select whatsapp_id from connection_leases where whatsapp_id = any(?::int[]) and owner <> ? and expires_at > now()`,
      [`{${ids.join(',')}}`, this.owner],
    );
    return new Set(rows.map((r) => Number(r.whatsapp_id)));
  }

  /** The process running the connection now (its live lease's owner, this one included), or null. */
  async ownerOf(whatsappId: number): Promise<string | null> {
    const [row] = await this.execute<{ owner: string }>(`select owner from connection_leases where whatsapp_id = ? and expires_at > now()`, [whatsappId]);
    return row?.owner ?? null;
  }

  /** Which of these connections no longer exist. */
  async deleted(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.execute<{ id: number }>(`select id from whatsapps where id = any(?::int[])`, [`{${ids.join(',')}}`]);
    const existing = new Set(rows.map((r) => Number(r.id)));
    return new Set(ids.filter((id) => !existing.has(id)));
  }

  /** Connections whose owner stopped renewing (it died): someone must run them. */
  async expired(): Promise<{ id: number; companyId: number; provider: string }[]> {
    const rows = await this.execute<{ id: number; company_id: number; provider: string }>(
      `select w.id, w.company_id, w.provider from connection_leases l join whatsapps w on w.id = l.whatsapp_id
       where l.expires_at <= now() and l.owner <> ? order by w.id`,
      [this.owner],
    );
    return rows.map((r) => ({ id: Number(r.id), companyId: Number(r.company_id), provider: r.provider }));
  }

  /** Gives the lease up (the session was stopped on purpose): nobody takes it over, anyone may start it. */
  async release(whatsappId: number): Promise<void> {
    await this.execute(`delete from connection_leases where whatsapp_id = ? and owner = ?`, [whatsappId, this.owner]);
  }

  /** Ends the lease now (this process is shutting down): the next round of another process takes it over. */
  async handOver(whatsappId: number): Promise<void> {
    await this.execute(`update connection_leases set expires_at = now() where whatsapp_id = ? and owner = ?`, [whatsappId, this.owner]);
  }

  /**
   * Inside a transaction that writes the session's keys: fails unless this process still holds the
   * lease, and holds the lease row until the transaction ends, so a takeover cannot slip in between
   * the check and the write (the new owner reads the keys only after this write, or this write fails).
   */
  async fence(tx: EntityManager, whatsappId: number): Promise<void> {
    const rows = await tx.execute<{ owner: string }[]>(`select owner from connection_leases where whatsapp_id = ? for share`, [whatsappId]);
    if (rows[0]?.owner !== this.owner) throw new LeaseLostError(whatsappId);
  }
}
