import { RateLimitSchema } from '../modules/auth/rate-limit.entity.js';
import { SessionSchema } from '../modules/auth/session.entity.js';
import { CompanySchedule, CompanyScheduleSchema, CompanySchema } from '../modules/companies/company.entity.js';
import { HelpSchema } from '../modules/helps/help.entity.js';
import { PlanSchema } from '../modules/plans/plan.entity.js';
import { SettingSchema } from '../modules/settings/setting.entity.js';
import { UserSchema } from '../modules/users/user.entity.js';

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
];

export { CompanySchedule };
