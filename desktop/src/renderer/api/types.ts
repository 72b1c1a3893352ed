import type { Language, PlanFeature, Profile, SettingKey } from '@atrium/shared';

/** Wire shapes the foundation reads (spec 01 section 3). Features declare their own in features/<name>/api. */

export interface QueueSummary {
  id: number;
  name: string;
  color: string;
}

export interface CompanySummary {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  status: boolean;
  /** yyyy-MM-dd, in the company's time zone. */
  dueDate: string | null;
  trialExpiration?: string | null;
  recurrence: string;
  planId: number;
  language?: string | null;
  timezone?: string;
  settings: { key: SettingKey | string; value: string }[];
}

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  companyId: number;
  allTicket: string;
  whatsappId: number | null;
  language?: Language | string | null;
  online?: boolean;
  queues: QueueSummary[];
  company?: CompanySummary;
}

/** POST /auth/login and POST /auth/refresh_token. */
export interface SessionResponse {
  token: string;
  user: SessionUser;
  /** Sent to every client; only a desktop build with a secure store keeps it. */
  refreshToken?: string;
}

export type PlanFlags = Record<PlanFeature, boolean>;

export interface Plan extends PlanFlags {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
}

/** GET /companies/listPlan/{companyId}. */
export interface CompanyPlan {
  id: number;
  name: string;
  dueDate: string | null;
  plan: Plan;
}

/** The connection fields the layout reads (the connections feature has the full shape). */
export interface ConnectionStatusInfo {
  id: number;
  name: string;
  status: string;
}
