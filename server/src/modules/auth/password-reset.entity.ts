import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { User } from '../users/user.entity.js';

/**
 * A pending password reset: one per user, holding only a hash of the e-mailed code. A new request
 * replaces it; a successful reset deletes it (single use); wrong guesses count against it.
 */
export class PasswordReset {
  [OptionalProps]?: 'attempts' | 'createdAt';
  userId!: number;
  companyId!: number;
  codeHash!: string;
  expiresAt!: Date;
  attempts = 0;
  createdAt = new Date();
}

export const PasswordResetSchema = new EntitySchema<PasswordReset>({
  class: PasswordReset,
  tableName: 'password_resets',
  filters: tenantFilter,
  properties: {
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    codeHash: { type: 'string', length: 128 },
    expiresAt: { type: 'datetime', columnType: 'timestamptz' },
    attempts: { type: 'integer', default: 0 },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});
