import { EntitySchema, OptionalProps } from '@mikro-orm/core';

export class Plan {
  [OptionalProps]?: 'users' | 'connections' | 'queues' | 'value' | PlanFlag | 'createdAt' | 'updatedAt';
  id!: number;
  name!: string;
  users = 0;
  connections = 0;
  queues = 0;
  value = 0;
  useCampaigns = true;
  useKanban = true;
  useOpenAi = true;
  useIntegrations = true;
  useSchedules = true;
  useInternalChat = true;
  useExternalApi = true;
  createdAt = new Date();
  updatedAt = new Date();
}
type PlanFlag =
  | 'useCampaigns'
  | 'useKanban'
  | 'useOpenAi'
  | 'useIntegrations'
  | 'useSchedules'
  | 'useInternalChat'
  | 'useExternalApi';

const flag = { type: 'boolean', default: true } as const;

export const PlanSchema = new EntitySchema<Plan>({
  class: Plan,
  tableName: 'plans',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 100, unique: true },
    users: { type: 'integer', default: 0 },
    connections: { type: 'integer', default: 0 },
    queues: { type: 'integer', default: 0 },
    // runtimeType: without it the column loads as a string and assigning a number fails validation.
    value: { type: 'double', columnType: 'numeric(12,2)', runtimeType: 'number', default: 0 },
    useCampaigns: flag,
    useKanban: flag,
    useOpenAi: flag,
    useIntegrations: flag,
    useSchedules: flag,
    useInternalChat: flag,
    useExternalApi: flag,
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
