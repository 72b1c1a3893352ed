import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Queue } from '../queues/queue.entity.js';

/**
 * An AI assistant (spec 02 section 3): its instructions, the model and its limits, the queue it hands a
 * conversation to. The API key is kept sealed (secrets/sealed.ts), with its last 4 characters for reads.
 */
export class Prompt {
  [OptionalProps]?: 'queueId' | 'apiKeyLast4' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  prompt!: string;
  model!: string;
  maxTokens!: number;
  temperature!: number;
  maxMessages!: number;
  /** The handoff queue; null only once that queue was deleted. */
  queueId: number | null = null;
  apiKeySealed!: string;
  apiKeyLast4 = '';
  createdAt = new Date();
  updatedAt = new Date();
}

export const PromptSchema = new EntitySchema<Prompt>({
  class: Prompt,
  tableName: 'prompts',
  filters: tenantFilter,
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 100 },
    prompt: { type: 'text' },
    model: { type: 'string', length: 100 },
    maxTokens: { type: 'integer' },
    temperature: { type: 'double' },
    maxMessages: { type: 'integer' },
    queueId: { kind: 'm:1', entity: () => Queue, mapToPk: true, nullable: true, fieldName: 'queue_id', deleteRule: 'set null' },
    apiKeySealed: { type: 'text' },
    apiKeyLast4: { type: 'string', length: 4, default: '' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

export type AiUsageKind = 'reply' | 'transcription' | 'suggestion' | 'summary' | 'test';

/** Tokens a company used with its prompts, per day, kind and model (added to by one upsert per call). */
export class AiUsage {
  [OptionalProps]?: 'requests' | 'promptTokens' | 'completionTokens' | 'totalTokens';
  id!: number;
  companyId!: number;
  day!: string;
  kind!: AiUsageKind;
  model!: string;
  requests = 0;
  promptTokens = 0;
  completionTokens = 0;
  totalTokens = 0;
}

export const AiUsageSchema = new EntitySchema<AiUsage>({
  class: AiUsage,
  tableName: 'ai_usages',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'day', 'kind', 'model'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    day: { type: 'date' },
    kind: { type: 'string', length: 16 },
    model: { type: 'string', length: 100 },
    requests: { type: 'integer', default: 0 },
    promptTokens: { type: 'integer', default: 0 },
    completionTokens: { type: 'integer', default: 0 },
    totalTokens: { type: 'integer', default: 0 },
  },
});
