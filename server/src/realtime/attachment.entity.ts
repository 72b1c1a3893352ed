import { EntitySchema } from '@mikro-orm/core';

/**
 * The realtime adapter's table (@socket.io/postgres-adapter): an emit larger than a NOTIFY may carry
 * (8 kB) or holding binary data is written here and only its id is notified; each process reads it back.
 * The adapter deletes rows older than 30 s. Not company data: it is never read by the application.
 */
export class SocketIoAttachment {
  id!: string;
  createdAt!: Date;
  payload!: Buffer;
}

export const SocketIoAttachmentSchema = new EntitySchema<SocketIoAttachment>({
  class: SocketIoAttachment,
  tableName: 'socket_io_attachments',
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'created_at', defaultRaw: 'now()' },
    payload: { type: 'blob' },
  },
});
