import type { Company } from '../companies/company.entity.js';
import type { User } from './user.entity.js';

export interface QueueSummary {
  id: number;
  name: string;
  color: string;
}

/** The user as the API shows it: never the password hash. */
export const presentUser = (user: User, extra: { company?: object; queues?: QueueSummary[] } = {}) => ({
  id: user.id,
  name: user.name,
  email: user.email,
  profile: user.profile,
  super: user.super,
  companyId: user.companyId,
  allTicket: user.allTicket,
  whatsappId: user.whatsappId,
  language: user.language,
  online: user.online,
  createdAt: user.createdAt,
  updatedAt: user.updatedAt,
  queues: extra.queues ?? [],
  ...(extra.company ? { company: extra.company } : {}),
});

export const presentCompanySummary = (company: Company, settings: object[]) => ({
  id: company.id,
  name: company.name,
  email: company.email,
  phone: company.phone,
  status: company.status,
  dueDate: company.dueDate,
  trialExpiration: company.trialExpiration,
  recurrence: company.recurrence,
  planId: company.planId,
  language: company.language,
  timezone: company.timezone,
  billingName: company.billingName,
  settings,
});
