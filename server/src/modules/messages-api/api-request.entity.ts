import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';

export type ApiRequestState = 'running' | 'done';

/**
 * One send through the messages API: the outbox rows it queued name it as their source. With an
 * Idempotency-Key it is also the key's record (draft-ietf-httpapi-idempotency-key-header): scoped to the
 * token that sent it, the request's fingerprint, whether it is still running, and the answer to replay.
 * Kept 24 hours (`expiresAt`), then swept; a key may be used again after that.
 */
export class ApiRequest {
  [OptionalProps]?: 'idempotencyKey' | 'state' | 'attempt' | 'statusCode' | 'response' | 'createdAt' | 'claimedAt';
  id!: number;
  companyId!: number;
  /** The token's connection. */
  whatsappId!: number;
  /** SHA-256 of the token that sent it: a key belongs to one token (a rotated token starts afresh). */
  tokenHash!: string;
  idempotencyKey: string | null = null;
  /** SHA-256 of the request (number, body, closeTicket and each file's name, type and content). */
  fingerprint!: string;
  state: ApiRequestState = 'running';
  /** Bumped when an abandoned claim (its process died mid-send) is taken over: the old run cannot finish. */
  attempt = 1;
  statusCode: number | null = null;
  response: unknown = null;
  createdAt = new Date();
  claimedAt = new Date();
  expiresAt!: Date;
}

export const ApiRequestSchema = new EntitySchema<ApiRequest>({
  class: ApiRequest,
  tableName: 'api_requests',
  filters: tenantFilter,
  // Two requests with one key meet here: the second finds the first's row.
  uniques: [{ name: 'api_requests_key', properties: ['tokenHash', 'idempotencyKey'] }],
  indexes: [{ name: 'api_requests_expires', properties: ['expiresAt'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    tokenHash: { type: 'string', length: 64, fieldName: 'token_hash' },
    idempotencyKey: { type: 'string', length: 255, nullable: true, fieldName: 'idempotency_key' },
    fingerprint: { type: 'string', length: 64 },
    state: { type: 'string', length: 10, default: 'running' },
    attempt: { type: 'integer', default: 1 },
    statusCode: { type: 'smallint', nullable: true, fieldName: 'status_code' },
    response: { type: 'json', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    claimedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), fieldName: 'claimed_at' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'expires_at' },
  },
});
