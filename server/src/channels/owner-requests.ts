import type { EntityManager } from '@mikro-orm/postgresql';
import { ERROR_STATUS, type ErrorCode } from '@atrium/shared';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { PgListener } from './pg-listener.js';

const REQUEST = 'atrium_session_request';
const REPLY = 'atrium_session_reply';
const NOTICE = 'atrium_session_notice';
/** NOTIFY carries at most 8000 bytes: a larger answer is an error (answers are a code, a number, an id). */
const MAX_REPLY = 7_900;

/** What a process asks of the session another process runs. */
export type OwnerCommand =
  | { kind: 'restart' }
  | { kind: 'restartFresh' }
  | { kind: 'logout' }
  /** One of the session's own calls (deleteMessage, markRead, ...) or its provider's commands. */
  | { kind: 'call'; method: string; args: unknown[] };

export interface OwnerRequest {
  whatsappId: number;
  companyId: number;
  provider: string;
  command: OwnerCommand;
}

/** What every process is told, with no answer expected. */
export type OwnerNotice = { kind: 'stopCompany'; companyId: number };

/** Buffers (a customer's media played on the sandbox phone) travel as base64. */
const encode = (value: unknown): string =>
  JSON.stringify(value, function (this: Record<string, unknown>, key, json: unknown) {
    const original = this[key];
    return Buffer.isBuffer(original) ? { $buffer: original.toString('base64') } : json;
  }) ?? 'null';
const decode = (text: string): unknown =>
  JSON.parse(text, (_key, value: unknown) =>
    value && typeof value === 'object' && '$buffer' in value && typeof value.$buffer === 'string' && Object.keys(value).length === 1
      ? Buffer.from(value.$buffer, 'base64')
      : value,
  );

/**
 * Commands for a connection's live session (a socket to WhatsApp lives in one process, the lease owner)
 * from any other process, through PostgreSQL: the request is a row of session_requests and a NOTIFY naming
 * the owner; the owner takes the row (deletes it), runs the command and NOTIFYs the answer or the error.
 * An owner that does not take it within `timeoutMs` (dead, frozen, cut off) makes the request fail with
 * ERR_WAPP_OWNER_UNREACHABLE; its row is deleted then, so the command never runs late. One taken but
 * slower than that may still complete after the asker was told so.
 */
export class OwnerRequests {
  private readonly waiting = new Map<string, { resolve: (value: unknown) => void; reject: (err: unknown) => void }>();
  private handler: ((request: OwnerRequest) => Promise<unknown>) | undefined;
  private noticeHandler: ((notice: OwnerNotice) => void) | undefined;
  private readonly purge: NodeJS.Timeout;

  constructor(
    listener: PgListener,
    private readonly systemEm: () => EntityManager,
    private readonly logger: Logger,
    private readonly options: { self: string; timeoutMs: number },
  ) {
    listener.on(REQUEST, (payload) => void this.take(payload));
    listener.on(REPLY, (payload) => this.answered(payload));
    listener.on(NOTICE, (payload) => this.noticed(payload));
    // Rows of an asker and an owner that both died before settling them.
    this.purge = setInterval(() => {
      void this.execute(`delete from session_requests where created_at < now() - interval '10 minutes'`, []).catch(() => undefined);
    }, 60_000);
    this.purge.unref();
  }

  private execute<T extends object>(sql: string, params: unknown[]): Promise<T[]> {
    return this.systemEm().getConnection().execute<T[]>(sql, params, 'all');
  }

  /** What this process does with a request meant for it. */
  serve(handler: (request: OwnerRequest) => Promise<unknown>): void {
    this.handler = handler;
  }

  onNotice(handler: (notice: OwnerNotice) => void): void {
    this.noticeHandler = handler;
  }

  /** Asks `owner` to run the command; its answer, its error, or ERR_WAPP_OWNER_UNREACHABLE after the timeout. */
  async ask(owner: string, request: OwnerRequest): Promise<unknown> {
    const [row] = await this.execute<{ id: string }>(
      `insert into session_requests (company_id, whatsapp_id, owner, command, created_at) values (?, ?, ?, ?, now()) returning id`,
      [request.companyId, request.whatsappId, owner, encode({ provider: request.provider, command: request.command })],
    );
    const id = String(row.id);
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<unknown>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      timer = setTimeout(() => {
        this.waiting.delete(id);
        this.logger.warn({ whatsappId: request.whatsappId, owner, command: request.command.kind }, 'the process running the connection did not answer');
        // Not taken yet: it never will be. Taken: the owner runs it still, but too slowly to wait for.
        void this.execute(`delete from session_requests where id = ?`, [id])
          .catch(() => undefined)
          .finally(() => reject(new AppError('ERR_WAPP_OWNER_UNREACHABLE')));
      }, this.options.timeoutMs);
    });
    try {
      await this.execute(`select pg_notify(?, ?)`, [REQUEST, JSON.stringify({ id, owner })]);
    } catch (err) {
      clearTimeout(timer);
      this.waiting.delete(id);
      throw err;
    }
    return answer.finally(() => clearTimeout(timer));
  }

  /** Tells every other process (no answer). */
  async announce(notice: OwnerNotice): Promise<void> {
    await this.execute(`select pg_notify(?, ?)`, [NOTICE, JSON.stringify({ from: this.options.self, notice })]);
  }

  /** A request was made: if it is meant for this process, taken, run and answered. */
  private async take(payload: string): Promise<void> {
    let id: string;
    try {
      const parsed = JSON.parse(payload) as { id: string; owner: string };
      if (parsed.owner !== this.options.self) return;
      id = parsed.id;
    } catch {
      return;
    }
    let reply: { id: string; ok: true; value: unknown } | { id: string; ok: false; error: string; extra?: Record<string, unknown> };
    try {
      const [row] = await this.execute<{ whatsapp_id: number; company_id: number; command: string }>(
        `delete from session_requests where id = ? returning whatsapp_id, company_id, command`,
        [id],
      );
      if (!row) return; // Given up by the asker already.
      const { provider, command } = decode(row.command) as { provider: string; command: OwnerCommand };
      if (!this.handler) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      const value = await this.handler({ whatsappId: Number(row.whatsapp_id), companyId: Number(row.company_id), provider, command });
      reply = { id, ok: true, value };
    } catch (err) {
      if (!(err instanceof AppError)) this.logger.error({ err }, 'a request for a session of this process failed');
      reply = err instanceof AppError ? { id, ok: false, error: err.code, extra: err.extra } : { id, ok: false, error: 'ERR_INTERNAL_SERVER_ERROR' };
    }
    let text = encode(reply);
    if (Buffer.byteLength(text) > MAX_REPLY) {
      this.logger.error({ bytes: Buffer.byteLength(text) }, 'an answer to another process is too large to notify');
      text = encode({ id, ok: false, error: 'ERR_INTERNAL_SERVER_ERROR' });
    }
    await this.execute(`select pg_notify(?, ?)`, [REPLY, text]).catch((err: unknown) => this.logger.warn({ err }, 'answering another process failed'));
  }

  private answered(payload: string): void {
    let reply: { id: string; ok: boolean; value?: unknown; error?: string; extra?: Record<string, unknown> };
    try {
      reply = decode(payload) as typeof reply;
    } catch {
      return;
    }
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return; // Another process's request, or one given up.
    this.waiting.delete(reply.id);
    if (reply.ok) return waiting.resolve(reply.value);
    const code = (reply.error && reply.error in ERROR_STATUS ? reply.error : 'ERR_INTERNAL_SERVER_ERROR') as ErrorCode;
    waiting.reject(new AppError(code, reply.extra ?? {}));
  }

  private noticed(payload: string): void {
    try {
      const { from, notice } = JSON.parse(payload) as { from: string; notice: OwnerNotice };
      if (from !== this.options.self) this.noticeHandler?.(notice);
    } catch {
      // Not one of ours.
    }
  }

  stop(): void {
    clearInterval(this.purge);
    for (const [id, waiting] of this.waiting) {
      this.waiting.delete(id);
      waiting.reject(new AppError('ERR_WAPP_OWNER_UNREACHABLE'));
    }
  }
}
