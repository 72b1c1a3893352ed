import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { User } from '../users/user.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';

/** PENDENTE until its job runs; ENVIADA once sent; ERRO with the reason after the last failed attempt. */
export const SCHEDULE_STATUSES = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** A message to send to a contact at `sendAt` (spec 01 section 3, spec 03 section 13). */
export class Schedule {
  [OptionalProps]?:
    | 'sentAt'
    | 'status'
    | 'ticketId'
    | 'userId'
    | 'whatsappId'
    | 'mediaPath'
    | 'mediaName'
    | 'error'
    | 'attempts'
    | 'createdAt'
    | 'updatedAt';
  id!: number;
  companyId!: number;
  body!: string;
  sendAt!: Date;
  sentAt: Date | null = null;
  contactId!: number;
  /** The ticket the message went out on (set when sent). */
  ticketId: number | null = null;
  userId: number | null = null;
  /** The connection to send through; the company default when null. */
  whatsappId: number | null = null;
  status: ScheduleStatus = 'PENDENTE';
  mediaPath: string | null = null;
  mediaName: string | null = null;
  error: string | null = null;
  attempts = 0;
  createdAt = new Date();
  updatedAt = new Date();
}

export const ScheduleSchema = new EntitySchema<Schedule>({
  class: Schedule,
  tableName: 'schedules',
  filters: tenantFilter,
  indexes: [{ properties: ['companyId', 'sendAt'] }, { properties: ['status', 'sendAt'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    body: { type: 'text' },
    sendAt: { type: 'datetime', columnType: 'timestamptz' },
    sentAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    contactId: { kind: 'm:1', entity: () => Contact, mapToPk: true, fieldName: 'contact_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, nullable: true, fieldName: 'ticket_id', deleteRule: 'set null' },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'user_id', deleteRule: 'set null' },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, nullable: true, fieldName: 'whatsapp_id', deleteRule: 'set null' },
    status: { type: 'string', length: 20, default: 'PENDENTE' },
    mediaPath: { type: 'string', length: 300, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    error: { type: 'text', nullable: true },
    attempts: { type: 'integer', default: 0 },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
