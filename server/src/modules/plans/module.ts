import type { AppModule } from '../app-module.js';
import { PlanSchema } from './plan.entity.js';
import { plansRoutes } from './plans.routes.js';

/** The plans module's contribution to the app (see modules/app-module.ts). */
export const plansModule: AppModule = {
  name: 'plans',
  entities: [PlanSchema],
  routes: (deps) => [plansRoutes(deps)],
};
