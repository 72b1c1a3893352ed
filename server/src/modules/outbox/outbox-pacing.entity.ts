import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';

/**
 * A pacing policy of one connection, named by whoever sets it ('campaigns', 'api'...): the outbox spaces
 * the paced rows itself, at claim time, so no caller plans send times and an outage never releases an
 * overdue backlog back to back. Every setting at 0 (or no window) is off.
 */
export class OutboxPacing {
  [OptionalProps]?: 'gapMs' | 'longGapEvery' | 'longGapMs' | 'dailyCap' | 'windowFrom' | 'windowTo' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  whatsappId!: number;
  name!: string;
  /** Least time between two paced sends of the connection, spread ±30% at random. */
  gapMs = 0;
  /** After this many paced sends, one gap of longGapMs instead. */
  longGapEvery = 0;
  longGapMs = 0;
  /** Paced sends of the connection per day (the company's time zone) while this policy's rows may go. */
  dailyCap = 0;
  /** Minutes after midnight (company time zone): paced rows go from windowFrom to windowTo (may wrap midnight). */
  windowFrom: number | null = null;
  windowTo: number | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const OutboxPacingSchema = new EntitySchema<OutboxPacing>({
  class: OutboxPacing,
  tableName: 'outbox_pacing',
  filters: tenantFilter,
  uniques: [{ properties: ['whatsappId', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 60 },
    gapMs: { type: 'integer', default: 0 },
    longGapEvery: { type: 'integer', default: 0 },
    longGapMs: { type: 'integer', default: 0 },
    dailyCap: { type: 'integer', default: 0 },
    windowFrom: { type: 'smallint', nullable: true },
    windowTo: { type: 'smallint', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/**
 * The pacing gate of one connection, shared by all its policies: two campaigns on one number take turns
 * through it and never double its rate. Moved by the claim that takes a paced row, in the same statement.
 */
export class OutboxPacingState {
  [OptionalProps]?: 'streak' | 'day' | 'dayCount' | 'lastAt';
  whatsappId!: number;
  companyId!: number;
  /** No paced row is claimed before this time. */
  nextAt!: Date;
  /** Paced sends since the last long gap. */
  streak = 0;
  /** The company's date of `dayCount`. */
  day: string | null = null;
  dayCount = 0;
  lastAt: Date | null = null;
}

export const OutboxPacingStateSchema = new EntitySchema<OutboxPacingState>({
  class: OutboxPacingState,
  tableName: 'outbox_pacing_state',
  filters: tenantFilter,
  properties: {
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, primary: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    nextAt: { type: 'datetime', columnType: 'timestamptz' },
    streak: { type: 'integer', default: 0 },
    day: { type: 'date', nullable: true },
    dayCount: { type: 'integer', default: 0 },
    lastAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
  },
});
