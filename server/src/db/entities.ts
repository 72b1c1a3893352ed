import { RateLimitSchema } from '../modules/auth/rate-limit.entity.js';
import { SessionSchema } from '../modules/auth/session.entity.js';
import { CompanySchedule, CompanyScheduleSchema, CompanySchema } from '../modules/companies/company.entity.js';
import { HelpSchema } from '../modules/helps/help.entity.js';
import { PlanSchema } from '../modules/plans/plan.entity.js';
import { SettingSchema } from '../modules/settings/setting.entity.js';
import { UserSchema } from '../modules/users/user.entity.js';
import { SandboxOutboxSchema } from '../channels/sandbox/outbox.entity.js';
import { ChannelAuthKeySchema, WhatsappQueueSchema, WhatsappSchema } from '../modules/connections/whatsapp.entity.js';
import { ContactCustomFieldSchema, ContactSchema } from '../modules/contacts/contact.entity.js';
import { MessageSchema } from '../modules/messages/message.entity.js';
import { QueueSchema, UserQueueSchema } from '../modules/queues/queue.entity.js';
import { QuickMessageSchema } from '../modules/quick-messages/quick-message.entity.js';
import { TagSchema, TicketTagSchema } from '../modules/tags/tag.entity.js';
import { TicketNoteSchema } from '../modules/ticket-notes/ticket-note.entity.js';
import { TicketSchema, TicketTrackingSchema, UserRatingSchema } from '../modules/tickets/ticket.entity.js';
import { AnnouncementSchema } from '../modules/announcements/announcement.entity.js';
import { InvoiceSchema, PaymentSchema } from '../modules/billing/invoice.entity.js';
import { QueueOptionSchema } from '../modules/queue-options/queue-option.entity.js';
import { ScheduleSchema } from '../modules/schedules/schedule.entity.js';
import { InboundQueueSchema } from '../pipeline/inbound-queue.entity.js';
import { OutboundMessageSchema } from '../modules/outbox/outbound-message.entity.js';

/** Every entity the ORM knows. A module adds its schemas here. */
export const entities = [
  PlanSchema,
  CompanySchema,
  CompanyScheduleSchema,
  UserSchema,
  SettingSchema,
  HelpSchema,
  SessionSchema,
  RateLimitSchema,
  QueueSchema,
  UserQueueSchema,
  WhatsappSchema,
  WhatsappQueueSchema,
  ChannelAuthKeySchema,
  ContactSchema,
  ContactCustomFieldSchema,
  TicketSchema,
  TicketTrackingSchema,
  UserRatingSchema,
  MessageSchema,
  TicketNoteSchema,
  TagSchema,
  TicketTagSchema,
  QuickMessageSchema,
  SandboxOutboxSchema,
  InboundQueueSchema,
  QueueOptionSchema,
  ScheduleSchema,
  InvoiceSchema,
  PaymentSchema,
  AnnouncementSchema,
  OutboundMessageSchema,
];

export { CompanySchedule };
