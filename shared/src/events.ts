/**
 * Realtime event names and payloads (spec 01 section 7). Events are named
 * `company-{companyId}-{resource}` and carry an `action`; `company-announcement` is global.
 */
export const COMPANY_RESOURCES = [
  'appMessage',
  'ticket',
  'contact',
  'chat',
  'auth',
  'user',
  'whatsapp',
  'whatsappSession',
  'payment',
  'settings',
  'queue',
  'schedule',
  'tag',
  'quickmessage',
  'company',
  'file',
  'prompt',
  'queueIntegration',
  'flowbuilder',
  'flowcampaign',
  'campaign',
  'campaignSettings',
  'ContactList',
  'ContactListItem',
] as const;
export type CompanyResource = (typeof COMPANY_RESOURCES)[number];

export const companyEvent = (companyId: number, resource: CompanyResource): string =>
  `company-${companyId}-${resource}`;

export const ANNOUNCEMENT_EVENT = 'company-announcement';

/** Socket rooms. Every room carries its company so no data crosses tenants (spec 03 section 14). */
export const rooms = {
  company: (companyId: number) => `company-${companyId}-mainchannel`,
  user: (userId: number) => `user-${userId}`,
  /** Every socket of the company's admins (joined on connecting): what only admins may hear. */
  admins: (companyId: number) => `company-${companyId}-admins`,
  notification: (companyId: number) => `company-${companyId}-notification`,
  status: (companyId: number, status: string) => `company-${companyId}-${status}`,
  queueStatus: (companyId: number, queueId: number | null, status: string) =>
    `company-${companyId}-queue-${queueId ?? 'null'}-${status}`,
  queueNotification: (companyId: number, queueId: number | null) =>
    `company-${companyId}-queue-${queueId ?? 'null'}-notification`,
  ticket: (companyId: number, ticketId: number | string) => `company-${companyId}-ticket-${ticketId}`,
};

/** Events the client sends. */
export const CLIENT_EVENTS = {
  joinChatBox: 'joinChatBox',
  leaveChatBox: 'leaveChatBox',
  joinTickets: 'joinTickets',
  leaveTickets: 'leaveTickets',
  joinNotification: 'joinNotification',
  leaveNotification: 'leaveNotification',
  userStatus: 'userStatus',
} as const;

export interface AuthEventPayload {
  action: 'update';
  user: { id: number; email: string; companyId: number };
}

export interface UserEventPayload {
  action: 'create' | 'update' | 'delete';
  user?: unknown;
  userId?: number;
}

export interface SettingsEventPayload {
  action: 'update';
  setting: { key: string; value: string };
}

export interface PaymentEventPayload {
  action: 'CONCLUIDA';
  company: unknown;
}
