import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BufferJSON, proto, type WAMessage } from '@whiskeysockets/baileys';
import type { MessageUpdate } from '../types.js';

/**
 * Baileys acknowledges a message to WhatsApp before our handler runs: a message the database could not
 * take then (a PostgreSQL restart, a failover) would be gone, for WhatsApp will not send it again. Such a
 * message is written here first, one file per connection (an append-only JSON-lines file, fsynced before
 * the write is taken as done), and stored from here once the database answers (so are the receipts, edits
 * and deletes that come meanwhile, behind the messages they concern); the file survives a crash
 * of the process and is read again when the connection's session starts. A line is either a message
 * (`{"s":seq,"k":key,"m":raw}`), an update (`{"s":seq,"u":update}`) or the mark that one was stored (`{"d":seq}`); the file is emptied once nothing in
 * it waits. A lost mark (a crash before it reached the disk) only means one more attempt, and storing is
 * idempotent by message id, so every message is stored once.
 */
export type SpoolEntry = {
  seq: number;
  /** Failed attempts with errors other than the database being unreachable (a message that cannot be stored). */
  failures: number;
} & ({ message: WAMessage; update?: undefined } | { update: MessageUpdate; message?: undefined });

/** What is spooled: a message as Baileys emitted it, or an update (receipt, edit, delete) as mapped. */
export type Spooled = { message: WAMessage } | { update: MessageUpdate };


/**
 * A message as Baileys emitted it, back from its JSON line: its proto fields, and its key as a plain object
 * (remoteJidAlt, participantAlt, isViewOnce... are Baileys' own, not proto fields: a proto object's JSON
 * and fromObject both drop them).
 */
const revive = (json: Record<string, unknown>, key: Record<string, unknown> | undefined): WAMessage => {
  const message = proto.WebMessageInfo.fromObject(json) as WAMessage;
  if (key) message.key = { ...message.key, ...key };
  return message;
};

export class InboundSpool {
  private readonly waiting: SpoolEntry[] = [];
  private handle: FileHandle | undefined;
  private seq = 0;
  /** Writes in order: an append, a mark and an emptying never interleave. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  /** Whether messages wait: a new one goes behind them, so a chat's messages are stored in order. */
  get holds(): boolean {
    return this.waiting.length > 0;
  }

  get size(): number {
    return this.waiting.length;
  }

  /** The oldest waiting messages, in order. */
  entries(): readonly SpoolEntry[] {
    return this.waiting;
  }

  /** Reads what an earlier run left (its messages not marked stored). */
  async load(): Promise<void> {
    let text = '';
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const found = new Map<number, SpoolEntry>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let record: { s?: number; m?: Record<string, unknown>; k?: Record<string, unknown>; u?: MessageUpdate; d?: number };
      try {
        record = JSON.parse(line, BufferJSON.reviver) as typeof record;
      } catch {
        // A line a crash cut off: its message was never taken as spooled (the write had not returned).
        continue;
      }
      if (typeof record.d === 'number') found.delete(record.d);
      else if (typeof record.s === 'number' && record.m) found.set(record.s, { seq: record.s, message: revive(record.m, record.k), failures: 0 });
      else if (typeof record.s === 'number' && record.u) found.set(record.s, { seq: record.s, update: record.u, failures: 0 });
      this.seq = Math.max(this.seq, record.s ?? record.d ?? 0);
    }
    this.waiting.splice(0, this.waiting.length, ...[...found.values()].sort((a, b) => a.seq - b.seq));
    // The cut-off line is ended, so the next one written is a line of its own.
    if (text.length > 0 && !text.endsWith('\n')) {
      await this.serial(async () => {
        const handle = await this.fileHandle();
        await handle.appendFile('\n');
        await handle.sync();
      });
    }
  }

  private async fileHandle(): Promise<FileHandle> {
    if (!this.handle) {
      await mkdir(path.dirname(this.file), { recursive: true });
      this.handle = await open(this.file, 'a', 0o600);
    }
    return this.handle;
  }

  private serial<T>(write: () => Promise<T>): Promise<T> {
    const next = this.writes.then(write, write);
    this.writes = next.catch(() => undefined);
    return next;
  }

  /** Appends messages or updates and returns once they are on the disk (fsync). */
  add(items: Spooled[]): Promise<void> {
    return this.serial(async () => {
      const entries: SpoolEntry[] = items.map((item) => ({ seq: ++this.seq, failures: 0, ...item }));
      const line = (e: SpoolEntry) => (e.message ? { s: e.seq, k: { ...e.message.key }, m: e.message } : { s: e.seq, u: e.update });
      const lines = entries.map((e) => JSON.stringify(line(e), BufferJSON.replacer)).join('\n') + '\n';
      const handle = await this.fileHandle();
      await handle.appendFile(lines);
      await handle.sync();
      this.waiting.push(...entries);
    });
  }

  /** The message is stored (or given up): marked, and the file emptied once nothing waits. */
  done(entry: SpoolEntry): Promise<void> {
    return this.serial(async () => {
      const at = this.waiting.indexOf(entry);
      if (at >= 0) this.waiting.splice(at, 1);
      const handle = await this.fileHandle();
      if (this.waiting.length === 0) {
        await handle.truncate(0);
        await handle.sync();
      } else {
        await handle.appendFile(JSON.stringify({ d: entry.seq }) + '\n');
      }
    });
  }

  async close(): Promise<void> {
    await this.writes;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  // PostgreSQL: shutting down, crashed, starting up; connection exceptions; too many connections.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);
const UNREACHABLE_TEXT =
  /connection terminated|terminating connection|timeout acquiring a connection|connection (?:is )?closed|database system is (?:starting up|shutting down|in recovery mode)|connection error|ECONNREFUSED/i;

/** Whether an error says the database could not be reached (wait for it), not that this message cannot be stored. */
export const isDatabaseUnreachable = (err: unknown): boolean => {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown; previous?: unknown; name?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && UNREACHABLE_CODES.has(e.code)) return true;
    if (e.name === 'ConnectionException') return true;
    if (typeof e.message === 'string' && UNREACHABLE_TEXT.test(e.message)) return true;
    e = (e.cause ?? e.previous) as typeof e;
  }
  return false;
};
