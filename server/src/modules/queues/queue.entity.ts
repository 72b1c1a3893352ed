import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { User } from '../users/user.entity.js';

export interface WeeklyHours {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

/** A department: its greeting, out-of-hours text, menu position and attendance hours. */
export class Queue {
  [OptionalProps]?:
    | 'greetingMessage'
    | 'outOfHoursMessage'
    | 'orderQueue'
    | 'integrationId'
    | 'promptId'
    | 'schedules'
    | 'createdAt'
    | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  color!: string;
  greetingMessage = '';
  outOfHoursMessage = '';
  orderQueue: number | null = null;
  integrationId: number | null = null;
  promptId: number | null = null;
  schedules: WeeklyHours[] = [];
  createdAt = new Date();
  updatedAt = new Date();
}

export const QueueSchema = new EntitySchema<Queue>({
  class: Queue,
  tableName: 'queues',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'color'] }, { properties: ['companyId', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 100 },
    color: { type: 'string', length: 20 },
    greetingMessage: { type: 'text', default: '' },
    outOfHoursMessage: { type: 'text', default: '' },
    orderQueue: { type: 'integer', nullable: true },
    integrationId: { type: 'integer', nullable: true },
    promptId: { type: 'integer', nullable: true },
    schedules: { type: 'json', default: '[]' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** Which queues an agent serves. */
export class UserQueue {
  userId!: number;
  queueId!: number;
  companyId!: number;
}

export const UserQueueSchema = new EntitySchema<UserQueue>({
  class: UserQueue,
  tableName: 'user_queues',
  filters: tenantFilter,
  properties: {
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' },
    queueId: { kind: 'm:1', entity: () => Queue, mapToPk: true, primary: true, fieldName: 'queue_id', deleteRule: 'cascade', index: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
  },
});
