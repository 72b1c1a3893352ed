import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { Company } from '../companies/company.entity.js';

/**
 * A notice super users publish to every company (spec 02 sections 3 and 7). Global like helps: it is not
 * tenant-filtered; `companyId` records the author's company (which owns its media file).
 */
export class Announcement {
  [OptionalProps]?: 'priority' | 'status' | 'mediaPath' | 'mediaName' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  title!: string;
  text!: string;
  /** 1 high, 2 medium, 3 low. */
  priority = 3;
  status = true;
  mediaPath: string | null = null;
  mediaName: string | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const AnnouncementSchema = new EntitySchema<Announcement>({
  class: Announcement,
  tableName: 'announcements',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    // The author's company does not scope who reads: without this, MikroORM joins companies to apply their
    // tenant filter and a request would only see its own company's announcements.
    companyId: {
      kind: 'm:1',
      entity: () => Company,
      mapToPk: true,
      fieldName: 'company_id',
      deleteRule: 'cascade',
      filters: { tenant: false },
    },
    title: { type: 'string', length: 200 },
    text: { type: 'text' },
    priority: { type: 'integer', default: 3 },
    status: { type: 'boolean', default: true },
    mediaPath: { type: 'string', length: 300, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
