import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';

/**
 * Idempotency-Key, as draft-ietf-httpapi-idempotency-key-header says: a key names one request of one
 * token for 24 hours. The first request with it claims the key (a committed `running` row); a second one
 * while it runs answers 409; with another body, 422; once the first has queued its messages, the same
 * answer again. The claim is settled in the send's own transaction (see `settle`), so an answer is on
 * record exactly when the messages are queued: a crash mid-send leaves nothing queued and a claim that
 * the next retry takes over once it is CLAIM_ABANDONED_SECONDS old.
 */
export const KEY_KEPT_HOURS = 24;
/** A running claim older than this was abandoned (its process died): a retry with the same body takes it over. */
export const CLAIM_ABANDONED_SECONDS = 120;

export interface RequestScope {
  companyId: number;
  whatsappId: number;
  tokenHash: string;
}

export type Claim = { kind: 'claimed'; id: number; attempt: number } | { kind: 'replay'; statusCode: number; response: unknown };

/** JSON with object keys in a fixed order, so equal requests hash equally. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
};

/** The request's fingerprint: SHA-256 of its canonical form. */
export const fingerprintOf = (request: unknown): string => createHash('sha256').update(canonical(request)).digest('hex');

/**
 * Claims `key` for this request, or answers what a request with it already got. Throws 422 for the key
 * with another fingerprint and 409 while the first request still runs. The first look is a plain read,
 * which never waits for the running request's transaction (its row is locked until it commits).
 */
export const claimKey = async (em: EntityManager, scope: RequestScope, key: string, fingerprint: string): Promise<Claim> => {
  // An expired key is free again: its old record goes first (the sweep removes the others).
  await em.execute('delete from api_requests where company_id = ? and token_hash = ? and idempotency_key = ? and expires_at <= now()', [
    scope.companyId,
    scope.tokenHash,
    key,
  ]);
  for (;;) {
    const [existing] = await em.execute<
      { id: number; attempt: number; fingerprint: string; state: string; status_code: number | null; response: unknown; abandoned: boolean }[]
    >(
      `select id, attempt, fingerprint, state, status_code, response, claimed_at <= now() - make_interval(secs => ?) as abandoned
       from api_requests where company_id = ? and token_hash = ? and idempotency_key = ?`,
      [CLAIM_ABANDONED_SECONDS, scope.companyId, scope.tokenHash, key],
    );
    if (existing) {
      if (existing.fingerprint !== fingerprint) throw new AppError('ERR_IDEMPOTENCY_KEY_REUSED');
      if (existing.state === 'done' && existing.status_code !== null) return { kind: 'replay', statusCode: existing.status_code, response: existing.response };
      if (!existing.abandoned) throw new AppError('ERR_IDEMPOTENCY_KEY_IN_USE');
      // Its process died mid-send (nothing was queued: that would have settled it): this request goes on.
      const taken = await em.execute<{ id: number; attempt: number }[]>(
        `update api_requests set attempt = attempt + 1, claimed_at = now() where id = ? and attempt = ? and state = 'running' returning id, attempt`,
        [existing.id, existing.attempt],
      );
      if (taken.length > 0) return { kind: 'claimed', id: taken[0].id, attempt: taken[0].attempt };
      continue;
    }
    // Of two requests with one new key, exactly one inserts; the other reads the winner's row next round.
    const inserted = await em.execute<{ id: number; attempt: number }[]>(
      `insert into api_requests (company_id, whatsapp_id, token_hash, idempotency_key, fingerprint, state, attempt, created_at, claimed_at, expires_at)
       values (?, ?, ?, ?, ?, 'running', 1, now(), now(), now() + make_interval(hours => ?))
       on conflict (token_hash, idempotency_key) do nothing
       returning id, attempt`,
      [scope.companyId, scope.whatsappId, scope.tokenHash, key, fingerprint, KEY_KEPT_HOURS],
    );
    if (inserted.length > 0) return { kind: 'claimed', id: inserted[0].id, attempt: inserted[0].attempt };
  }
};

/**
 * Inside the send's transaction, first: the claim is still this run's (no retry took it over), and its row
 * stays locked until the transaction ends, so a retry waits and then finds the answer. Without a key, the
 * request's record is written here. Answers the record's id (the outbox rows' source).
 */
export const holdClaim = async (tx: EntityManager, scope: RequestScope, claim: { id: number; attempt: number } | null, fingerprint: string): Promise<number> => {
  if (!claim) {
    const [row] = await tx.execute<{ id: number }[]>(
      `insert into api_requests (company_id, whatsapp_id, token_hash, idempotency_key, fingerprint, state, attempt, created_at, claimed_at, expires_at)
       values (?, ?, ?, null, ?, 'running', 1, now(), now(), now() + make_interval(hours => ?)) returning id`,
      [scope.companyId, scope.whatsappId, scope.tokenHash, fingerprint, KEY_KEPT_HOURS],
    );
    return row.id;
  }
  const held = await tx.execute<{ id: number }[]>(
    `update api_requests set claimed_at = now() where id = ? and company_id = ? and attempt = ? and state = 'running' returning id`,
    [claim.id, scope.companyId, claim.attempt],
  );
  // A retry took the claim over while this run was slow: that run answers; this one queues nothing.
  if (held.length === 0) throw new AppError('ERR_IDEMPOTENCY_KEY_IN_USE');
  return claim.id;
};

/** Inside the send's transaction, last: the answer a retry with the key replays. */
export const settle = async (tx: EntityManager, requestId: number, statusCode: number, response: unknown): Promise<void> => {
  await tx.execute(`update api_requests set state = 'done', status_code = ?, response = ?::jsonb where id = ?`, [
    statusCode,
    JSON.stringify(response),
    requestId,
  ]);
};

/** The request was refused before anything was queued (a bad number, the connection down): its key is free again. */
export const releaseClaim = async (em: EntityManager, scope: RequestScope, claim: { id: number; attempt: number }): Promise<void> => {
  await em.execute(`delete from api_requests where id = ? and company_id = ? and attempt = ? and state = 'running'`, [
    claim.id,
    scope.companyId,
    claim.attempt,
  ]);
};

/** Forgets the requests older than a day (every key with them). */
export const sweepExpired = async (em: EntityManager): Promise<number> => {
  const rows = await em.execute<{ id: number }[]>('delete from api_requests where expires_at <= now() returning id');
  return rows.length;
};
