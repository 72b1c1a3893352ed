import { EntitySchema } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';

export class Setting {
  id!: number;
  companyId!: number;
  key!: string;
  value!: string;
}

export const SettingSchema = new EntitySchema<Setting>({
  class: Setting,
  tableName: 'settings',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'key'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    key: { type: 'string', length: 100 },
    value: { type: 'text' },
  },
});
