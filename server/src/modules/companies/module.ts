import type { AppModule } from '../app-module.js';
import './companies.events.js';
import { registerCompaniesRealtime } from './companies.realtime.js';
import { companiesRoutes } from './companies.routes.js';
import { registerCompanyCleanup } from './company-cleanup.js';
import { CompanyScheduleSchema, CompanySchema } from './company.entity.js';

/** The companies module's contribution to the app (see modules/app-module.ts). */
export const companiesModule: AppModule = {
  name: 'companies',
  entities: [CompanySchema, CompanyScheduleSchema],
  routes: (deps) => [companiesRoutes(deps)],
  listeners: (ctx) => registerCompanyCleanup(ctx.events, { channels: ctx.channels, media: ctx.media }),
  realtime: registerCompaniesRealtime,
};
