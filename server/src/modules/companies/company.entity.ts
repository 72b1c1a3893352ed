import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { companyTenantFilter, tenantFilter } from '../../db/tenant.js';
import { Plan } from '../plans/plan.entity.js';

export class Company {
  [OptionalProps]?:
    | 'email'
    | 'phone'
    | 'status'
    | 'dueDate'
    | 'trialExpiration'
    | 'recurrence'
    | 'language'
    | 'timezone'
    | 'billingName'
    | 'createdAt'
    | 'updatedAt';
  id!: number;
  name!: string;
  email: string | null = null;
  phone: string | null = null;
  planId!: number;
  status = true;
  /** yyyy-MM-dd: the last day the subscription covers. */
  dueDate: string | null = null;
  trialExpiration: Date | null = null;
  recurrence = 'MENSAL';
  /** Language of automatic customer messages. */
  language = 'pt';
  timezone = 'America/Sao_Paulo';
  billingName: string | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const CompanySchema = new EntitySchema<Company>({
  class: Company,
  tableName: 'companies',
  filters: companyTenantFilter,
  uniques: [
    { name: 'companies_lower_name_unique', expression: 'create unique index "companies_lower_name_unique" on "companies" (lower("name"))' },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 100, unique: true },
    email: { type: 'string', length: 254, nullable: true },
    phone: { type: 'string', length: 20, nullable: true },
    planId: { kind: 'm:1', entity: () => Plan, mapToPk: true, fieldName: 'plan_id', deleteRule: 'restrict' },
    status: { type: 'boolean', default: true },
    dueDate: { type: 'date', nullable: true },
    trialExpiration: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    recurrence: { type: 'string', length: 20, default: 'MENSAL' },
    language: { type: 'string', length: 5, default: 'pt' },
    timezone: { type: 'string', length: 64, default: 'America/Sao_Paulo' },
    billingName: { type: 'string', length: 100, nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

export class CompanySchedule {
  [OptionalProps]?: 'weekday' | 'startTime' | 'endTime';
  id!: number;
  companyId!: number;
  weekday = '';
  weekdayEn!: string;
  startTime = '';
  endTime = '';
}

export const CompanyScheduleSchema = new EntitySchema<CompanySchedule>({
  class: CompanySchedule,
  tableName: 'company_schedules',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'weekdayEn'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    weekday: { type: 'string', length: 30, default: '' },
    weekdayEn: { type: 'string', length: 10 },
    startTime: { type: 'string', length: 5, default: '' },
    endTime: { type: 'string', length: 5, default: '' },
  },
});
