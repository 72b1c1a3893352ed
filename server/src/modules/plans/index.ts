import type { AppModule } from '../module.js';
import { PlanSchema } from './plan.entity.js';
import { plansRoutes } from './plans.routes.js';

/** The plans module's contribution to the app (see modules/module.ts). */
export const plansModule: AppModule = {
  name: 'plans',
  entities: [PlanSchema],
  routes: (deps) => [plansRoutes(deps)],
};

// What other modules may use of this one (they import it only from here).
export { assertPlanAllows, assertPlanFeature, findPlan, presentPlan } from './plans.service.js';
