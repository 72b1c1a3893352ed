import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';

/** A reusable set of files with a message (spec 02 "File list"); campaigns send them. */
export class FileList {
  [OptionalProps]?: 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  message!: string;
  createdAt = new Date();
  updatedAt = new Date();
}

export const FileListSchema = new EntitySchema<FileList>({
  class: FileList,
  tableName: 'files',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 100 },
    message: { type: 'text' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** One file of a list. `path` is the media store's name for it (random, chosen by the server). */
export class FileOption {
  [OptionalProps]?: 'path' | 'mediaType' | 'mediaName' | 'size' | 'position' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  fileId!: number;
  name!: string;
  position = 0;
  path: string | null = null;
  mediaType: string | null = null;
  mediaName: string | null = null;
  size: number | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const FileOptionSchema = new EntitySchema<FileOption>({
  class: FileOption,
  tableName: 'files_options',
  filters: tenantFilter,
  indexes: [{ properties: ['fileId', 'position'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    fileId: { kind: 'm:1', entity: () => FileList, mapToPk: true, fieldName: 'file_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 200 },
    position: { type: 'integer', default: 0 },
    path: { type: 'string', length: 100, nullable: true },
    mediaType: { type: 'string', length: 100, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    size: { type: 'integer', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
