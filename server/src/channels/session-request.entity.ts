import { EntitySchema } from '@mikro-orm/core';
import { Company } from '../modules/companies/company.entity.js';

/**
 * A command for a connection's live session, made on a server process that does not run it, waiting for
 * the process that does (its lease owner) to take it (see owner-requests.ts). Rows live seconds: the owner
 * deletes one as it takes it, the asker when nobody took it in time. Read only by raw SQL of the system.
 */
export class SessionRequest {
  id!: string;
  companyId!: number;
  /** No foreign key: a deleted connection's session is still told to log its phone out. */
  whatsappId!: number;
  /** The lease owner it is meant for. */
  owner!: string;
  /** The command and its arguments, as JSON text. */
  command!: string;
  createdAt!: Date;
}

export const SessionRequestSchema = new EntitySchema<SessionRequest>({
  class: SessionRequest,
  tableName: 'session_requests',
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    whatsappId: { type: 'integer', fieldName: 'whatsapp_id' },
    owner: { type: 'string', length: 100 },
    command: { type: 'text' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'created_at', defaultRaw: 'now()', index: true },
  },
});
