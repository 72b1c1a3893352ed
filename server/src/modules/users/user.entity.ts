import { EntitySchema, HiddenProps, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';

export class User {
  [OptionalProps]?:
    | 'profile'
    | 'super'
    | 'allTicket'
    | 'whatsappId'
    | 'language'
    | 'online'
    | 'lastSeenAt'
    | 'createdAt'
    | 'updatedAt';
  [HiddenProps]?: 'passwordHash';
  id!: number;
  name!: string;
  email!: string;
  passwordHash!: string;
  profile: 'admin' | 'user' = 'user';
  super = false;
  companyId!: number;
  allTicket: 'enabled' | 'desabled' = 'desabled';
  whatsappId: number | null = null;
  /** The UI language, per user. */
  language: string | null = null;
  online = false;
  lastSeenAt: Date | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const UserSchema = new EntitySchema<User>({
  class: User,
  tableName: 'users',
  filters: tenantFilter,
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 100 },
    // Stored lower-cased; unique across the platform because login is by email alone.
    email: { type: 'string', length: 254, unique: true },
    passwordHash: { type: 'string', length: 255, hidden: true },
    profile: { type: 'string', length: 10, default: 'user' },
    super: { type: 'boolean', default: false },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade', index: true },
    allTicket: { type: 'string', length: 10, default: 'desabled' },
    whatsappId: { type: 'integer', nullable: true },
    language: { type: 'string', length: 5, nullable: true },
    online: { type: 'boolean', default: false },
    lastSeenAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
