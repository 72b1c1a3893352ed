import { EntitySchema, OptionalProps } from '@mikro-orm/core';

/** Help videos are shared by every company; only super users write them. */
export class Help {
  [OptionalProps]?: 'description' | 'video' | 'createdAt' | 'updatedAt';
  id!: number;
  title!: string;
  description = '';
  video = '';
  createdAt = new Date();
  updatedAt = new Date();
}

export const HelpSchema = new EntitySchema<Help>({
  class: Help,
  tableName: 'helps',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    title: { type: 'string', length: 200 },
    description: { type: 'text', default: '' },
    video: { type: 'string', length: 300, default: '' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
