import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { User } from '../users/user.entity.js';

/**
 * A login session. The refresh token is `{id}.{secret}`; only a hash of the secret is kept, and it is
 * replaced on every refresh. A revoked session also invalidates its access tokens (checked per request).
 */
export class Session {
  [OptionalProps]?: 'revokedAt' | 'createdAt' | 'lastUsedAt' | 'userAgent' | 'ip';
  id!: string;
  userId!: number;
  companyId!: number;
  refreshHash!: string;
  expiresAt!: Date;
  revokedAt: Date | null = null;
  createdAt = new Date();
  lastUsedAt = new Date();
  userAgent: string | null = null;
  ip: string | null = null;
}

export const SessionSchema = new EntitySchema<Session>({
  class: Session,
  tableName: 'sessions',
  filters: tenantFilter,
  properties: {
    id: { type: 'uuid', primary: true },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade', index: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    refreshHash: { type: 'string', length: 128 },
    expiresAt: { type: 'datetime', columnType: 'timestamptz' },
    revokedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    lastUsedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    userAgent: { type: 'string', length: 300, nullable: true },
    ip: { type: 'string', length: 64, nullable: true },
  },
});
