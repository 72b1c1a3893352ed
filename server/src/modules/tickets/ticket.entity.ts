import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Queue } from '../queues/queue.entity.js';
import { User } from '../users/user.entity.js';

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

type Defaulted =
  | 'uuid'
  | 'status'
  | 'whatsappId'
  | 'userId'
  | 'queueId'
  | 'isGroup'
  | 'lastMessage'
  | 'lastMessageAt'
  | 'lastFromMe'
  | 'unreadMessages'
  | 'awaitingRatingSince'
  | 'ratingAttempts'
  | 'createdAt'
  | 'updatedAt';

/**
 * One conversation with a contact on a connection. At most one ticket per contact and connection is
 * open or pending at a time (a partial unique index); a closed ticket stays as history and a new
 * conversation opens a new ticket. Who holds the conversation (a person or the automation) is in
 * holds.ts, not in flags here.
 */
export class Ticket {
  [OptionalProps]?: Defaulted;
  id!: number;
  uuid: string = randomUUID();
  companyId!: number;
  status: TicketStatus = 'pending';
  contactId!: number;
  whatsappId: number | null = null;
  userId: number | null = null;
  queueId: number | null = null;
  isGroup = false;
  lastMessage = '';
  lastMessageAt: Date | null = null;
  /** The last message was ours (the inactivity close needs it). */
  lastFromMe = false;
  unreadMessages = 0;
  /** Set while the customer is asked to rate the attendance (userRating). */
  awaitingRatingSince: Date | null = null;
  ratingAttempts = 0;
  createdAt = new Date();
  updatedAt = new Date();
}

export const TicketSchema = new EntitySchema<Ticket>({
  class: Ticket,
  tableName: 'tickets',
  filters: tenantFilter,
  indexes: [
    // The default order of every list: newest activity first.
    { properties: ['companyId', 'updatedAt', 'id'] },
    { properties: ['companyId', 'status', 'updatedAt'] },
    { properties: ['companyId', 'queueId', 'status', 'updatedAt'] },
    { properties: ['companyId', 'userId', 'status', 'updatedAt'] },
    { properties: ['contactId'] },
  ],
  uniques: [
    // At most one open or pending ticket per contact and connection, whatever the timing of messages.
    {
      name: 'tickets_one_active_per_contact',
      expression:
        'create unique index "tickets_one_active_per_contact" on "tickets" ("contact_id", "whatsapp_id") where "status" in (\'open\', \'pending\')',
    },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    uuid: { type: 'uuid', unique: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    status: { type: 'string', length: 10, default: 'pending' },
    contactId: { kind: 'm:1', entity: () => Contact, mapToPk: true, fieldName: 'contact_id', deleteRule: 'cascade' },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, nullable: true, fieldName: 'whatsapp_id', deleteRule: 'set null' },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'user_id', deleteRule: 'set null' },
    queueId: { kind: 'm:1', entity: () => Queue, mapToPk: true, nullable: true, fieldName: 'queue_id', deleteRule: 'set null' },
    isGroup: { type: 'boolean', default: false },
    lastMessage: { type: 'text', default: '' },
    lastMessageAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    lastFromMe: { type: 'boolean', default: false },
    unreadMessages: { type: 'integer', default: 0 },
    awaitingRatingSince: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    ratingAttempts: { type: 'integer', default: 0 },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** An attendance cycle of a ticket: queued, started, finished, rated (the dashboard's base). */
export class TicketTracking {
  [OptionalProps]?: 'whatsappId' | 'userId' | 'queueId' | 'queuedAt' | 'startedAt' | 'finishedAt' | 'ratingAt' | 'rated' | 'createdAt';
  id!: number;
  companyId!: number;
  ticketId!: number;
  whatsappId: number | null = null;
  userId: number | null = null;
  queueId: number | null = null;
  queuedAt: Date | null = null;
  startedAt: Date | null = null;
  finishedAt: Date | null = null;
  ratingAt: Date | null = null;
  rated = false;
  createdAt = new Date();
}

export const TicketTrackingSchema = new EntitySchema<TicketTracking>({
  class: TicketTracking,
  tableName: 'ticket_trackings',
  filters: tenantFilter,
  indexes: [{ properties: ['companyId', 'createdAt'] }, { properties: ['ticketId'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, fieldName: 'ticket_id', deleteRule: 'cascade' },
    whatsappId: { type: 'integer', nullable: true },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'user_id', deleteRule: 'set null' },
    queueId: { type: 'integer', nullable: true },
    queuedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    startedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    finishedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    ratingAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    rated: { type: 'boolean', default: false },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});

/** A customer's 1-3 rating of an attendance. */
export class UserRating {
  [OptionalProps]?: 'userId' | 'createdAt';
  id!: number;
  companyId!: number;
  ticketId!: number;
  userId: number | null = null;
  rate!: number;
  createdAt = new Date();
}

export const UserRatingSchema = new EntitySchema<UserRating>({
  class: UserRating,
  tableName: 'user_ratings',
  filters: tenantFilter,
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, fieldName: 'ticket_id', deleteRule: 'cascade', index: true },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'user_id', deleteRule: 'set null' },
    rate: { type: 'integer' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});
