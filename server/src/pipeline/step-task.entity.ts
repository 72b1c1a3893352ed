import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../db/tenant.js';
import { Company } from '../modules/companies/company.entity.js';
import { Ticket } from '../modules/tickets/ticket.entity.js';

export type StepTaskStatus = 'pending' | 'running' | 'failed';

/**
 * The slow part of an inbound step (an AI answer, a Typebot or webhook call), written by the step when it
 * claims the message and run after commit outside the connection's inbound stage: in order per ticket,
 * concurrently across tickets, by any server process (steps/tasks.ts). A finished task is deleted; a
 * failed one stays, with its error, for an admin to see.
 */
export class StepTask {
  [OptionalProps]?: 'data' | 'status' | 'attempts' | 'runAfter' | 'startedAt' | 'lastError' | 'createdAt';
  id!: number;
  companyId!: number;
  ticketId!: number;
  step!: string;
  facts!: Record<string, unknown>;
  data: Record<string, unknown> = {};
  status: StepTaskStatus = 'pending';
  attempts = 0;
  runAfter = new Date();
  startedAt: Date | null = null;
  lastError: string | null = null;
  createdAt = new Date();
}

export const StepTaskSchema = new EntitySchema<StepTask>({
  class: StepTask,
  tableName: 'step_tasks',
  filters: tenantFilter,
  indexes: [
    // The workers' question: the next due task whose ticket has nothing earlier waiting or running.
    { name: 'step_tasks_due', expression: `create index "step_tasks_due" on "step_tasks" ("run_after", "id") where "status" = 'pending'` },
    { name: 'step_tasks_ticket', expression: `create index "step_tasks_ticket" on "step_tasks" ("ticket_id", "id") where "status" in ('pending', 'running')` },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, fieldName: 'ticket_id', deleteRule: 'cascade' },
    step: { type: 'string', length: 60 },
    facts: { type: 'json' },
    data: { type: 'json', default: '{}' },
    status: { type: 'string', length: 10, default: 'pending' },
    attempts: { type: 'integer', default: 0 },
    runAfter: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    startedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    lastError: { type: 'string', length: 500, nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});
