import type { AppModule } from '../app-module.js';
import './billing.events.js';
import { registerBillingRealtime } from './billing.realtime.js';
import { registerBillingJobs, registerBillingListeners, startBillingJobs } from './billing.jobs.js';
import { billingRoutes } from './billing.routes.js';
import { InvoiceSchema, PaymentSchema } from './invoice.entity.js';

/** The billing module's contribution to the app (see modules/app-module.ts). */
export const billingModule: AppModule = {
  name: 'billing',
  entities: [InvoiceSchema, PaymentSchema],
  routes: (deps) => [billingRoutes(deps)],
  jobs: (registry, ctx) => registerBillingJobs(registry, ctx.systemEm, ctx.logger),
  // A company gets its invoice as soon as its due date is within reach.
  listeners: (ctx) => registerBillingListeners(ctx.events, ctx.systemEm, ctx.logger),
  started: ({ scheduler }) => startBillingJobs(scheduler),
  realtime: registerBillingRealtime,
};
