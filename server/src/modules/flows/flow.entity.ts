import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlowGraph, FlowMediaKind, FlowPhraseMatch, FlowRunStatus } from '@atrium/shared';
import { requireTenant, tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';

/**
 * A flow of the flow builder (spec 02 "Flow"). Its canvas is saved whole as a new version each time
 * (`flow_versions`); `version` names the last one, which is what new runs start on. A run keeps the
 * version it started on, so an edit saved meanwhile never changes the graph under a waiting customer.
 */
export class Flow {
  [OptionalProps]?: 'active' | 'version' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  active = true;
  /** The last saved version (0: the canvas was never saved). */
  version = 0;
  createdAt = new Date();
  updatedAt = new Date();
}

export const FlowSchema = new EntitySchema<Flow>({
  class: Flow,
  tableName: 'flows',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 100 },
    active: { type: 'boolean', default: true },
    version: { type: 'integer', default: 0 },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** One saved canvas of a flow; never changed once written (what a run reads may be cached by its key). */
export class FlowVersion {
  [OptionalProps]?: 'createdAt';
  flowId!: number;
  version!: number;
  companyId!: number;
  graph!: FlowGraph;
  createdAt = new Date();
}

export const FlowVersionSchema = new EntitySchema<FlowVersion>({
  class: FlowVersion,
  tableName: 'flow_versions',
  filters: tenantFilter,
  properties: {
    flowId: { kind: 'm:1', entity: () => Flow, mapToPk: true, primary: true, fieldName: 'flow_id', deleteRule: 'cascade' },
    version: { type: 'integer', primary: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    graph: { type: 'json' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});

/**
 * The company's flows whose last saved canvas (what new runs start on) has a node containing `node`
 * (jsonb containment, e.g. `{type: 'typebot', data: {typebotIntegration: {id: 5}}}`), by name. Here beside
 * the tables, not in the module's API: the modules a flow names (queues, integrations) sit below flows and
 * ask it before a delete would leave a node pointing at nothing. `em` is bound to the company.
 */
export const flowsNaming = async (em: EntityManager, node: Record<string, unknown>): Promise<{ id: number; name: string }[]> =>
  em.execute<{ id: number; name: string }[]>(
    `select f.id, f.name from flows f
       join flow_versions v on v.flow_id = f.id and v.version = f.version
      where f.company_id = ? and v.graph -> 'nodes' @> ?::jsonb
      order by f.name, f.id`,
    [requireTenant(em), JSON.stringify([node])],
  );

/**
 * A phrase-triggered flow campaign (spec 02 "Flow campaign"): a customer's message on `whatsappId` that
 * matches the phrase starts the flow. `phraseKey` is the phrase as compared (normalizePhrase), unique per
 * connection.
 */
export class FlowCampaign {
  [OptionalProps]?: 'status' | 'matchType' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  flowId!: number;
  whatsappId!: number;
  phrase!: string;
  phraseKey!: string;
  status = true;
  matchType: FlowPhraseMatch = 'exact';
  createdAt = new Date();
  updatedAt = new Date();
}

export const FlowCampaignSchema = new EntitySchema<FlowCampaign>({
  class: FlowCampaign,
  tableName: 'flow_campaigns',
  filters: tenantFilter,
  uniques: [{ properties: ['whatsappId', 'phraseKey'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 100 },
    flowId: { kind: 'm:1', entity: () => Flow, mapToPk: true, fieldName: 'flow_id', deleteRule: 'cascade', index: true },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    phrase: { type: 'string', length: 500 },
    phraseKey: { type: 'string', length: 500, fieldName: 'phrase_key' },
    status: { type: 'boolean', default: true },
    matchType: { type: 'string', length: 10, default: 'exact', fieldName: 'match_type' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/**
 * A file uploaded for flows (POST /flowbuilder/img, /audio, /content). A canvas may name only these, so a
 * saved graph can never point at another file of the company's media. An audio file also has its voice-note
 * form (Ogg/Opus, made once at upload), sent when the card asks for a recording.
 */
export class FlowMedia {
  [OptionalProps]?: 'voiceFileName' | 'createdAt';
  fileName!: string;
  companyId!: number;
  kind!: FlowMediaKind;
  mimetype!: string;
  mediaName!: string;
  size!: number;
  voiceFileName: string | null = null;
  createdAt = new Date();
}

export const FlowMediaSchema = new EntitySchema<FlowMedia>({
  class: FlowMedia,
  tableName: 'flow_media',
  filters: tenantFilter,
  properties: {
    fileName: { type: 'string', length: 100, primary: true, fieldName: 'file_name' },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade', index: true },
    kind: { type: 'string', length: 10 },
    mimetype: { type: 'string', length: 100 },
    mediaName: { type: 'string', length: 300, fieldName: 'media_name' },
    size: { type: 'integer' },
    voiceFileName: { type: 'string', length: 100, nullable: true, fieldName: 'voice_file_name' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});

export type FlowTrigger = 'phrase' | 'welcome' | 'noMatch';

/**
 * A flow's run on a ticket: how it started, where it stands (running or waiting while it holds the
 * conversation, then done, expired or handed to a person). The run's live state (node, variables,
 * retries, wait) is the conversation hold's (tickets/holds.ts); this row outlives it, so the log and the
 * start rules (a no-match flow once per conversation, a welcome once per attendance) can read it.
 */
export class FlowRun {
  [OptionalProps]?: 'campaignId' | 'status' | 'endedAt' | 'startedAt';
  id!: number;
  companyId!: number;
  ticketId!: number;
  /** Null once the flow is deleted (the ticket's log keeps the run). */
  flowId!: number | null;
  version!: number;
  trigger!: FlowTrigger;
  campaignId: number | null = null;
  status: FlowRunStatus = 'running';
  startedAt = new Date();
  endedAt: Date | null = null;
}

export const FlowRunSchema = new EntitySchema<FlowRun>({
  class: FlowRun,
  tableName: 'flow_runs',
  filters: tenantFilter,
  indexes: [{ properties: ['ticketId', 'trigger'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, fieldName: 'ticket_id', deleteRule: 'cascade' },
    flowId: { kind: 'm:1', entity: () => Flow, mapToPk: true, fieldName: 'flow_id', deleteRule: 'set null', nullable: true, index: true },
    version: { type: 'integer' },
    trigger: { type: 'string', length: 10 },
    campaignId: { type: 'integer', nullable: true, fieldName: 'campaign_id' },
    status: { type: 'string', length: 10, default: 'running' },
    startedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), fieldName: 'started_at' },
    endedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true, fieldName: 'ended_at' },
  },
});

/** One step of a run (node, outcome, when): the ticket's flow log, shown to admins from the conversation. */
export class FlowStep {
  [OptionalProps]?: 'detail' | 'createdAt';
  id!: string;
  companyId!: number;
  runId!: number;
  ticketId!: number;
  nodeId!: string;
  nodeType!: string;
  outcome!: string;
  detail: string | null = null;
  createdAt = new Date();
}

export const FlowStepSchema = new EntitySchema<FlowStep>({
  class: FlowStep,
  tableName: 'flow_steps',
  filters: tenantFilter,
  indexes: [{ properties: ['ticketId', 'id'] }, { properties: ['createdAt'] }],
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    runId: { kind: 'm:1', entity: () => FlowRun, mapToPk: true, fieldName: 'run_id', deleteRule: 'cascade', index: true },
    ticketId: { type: 'integer', fieldName: 'ticket_id' },
    nodeId: { type: 'string', length: 30, fieldName: 'node_id' },
    nodeType: { type: 'string', length: 20, fieldName: 'node_type' },
    outcome: { type: 'string', length: 40 },
    detail: { type: 'string', length: 300, nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), fieldName: 'created_at' },
  },
});
