import { SandboxOutboxSchema } from '../channels/sandbox/outbox.entity.js';
import { SessionRequestSchema } from '../channels/session-request.entity.js';
import { modules } from '../modules/index.js';
import { InboundQueueSchema } from '../pipeline/inbound-queue.entity.js';
import { StepTaskSchema } from '../pipeline/step-task.entity.js';
import { SocketIoAttachmentSchema } from '../realtime/attachment.entity.js';

export { CompanySchedule } from '../modules/companies/company.entity.js';

/**
 * Every entity the ORM knows: each module's (modules/index.ts), the sandbox phone's, the pipeline's, the
 * requests to a session's owner and the realtime adapter's table (so that migrations create it).
 */
export const entities = [
  ...modules.flatMap((m) => m.entities ?? []),
  SandboxOutboxSchema,
  InboundQueueSchema,
  StepTaskSchema,
  SessionRequestSchema,
  SocketIoAttachmentSchema,
];
