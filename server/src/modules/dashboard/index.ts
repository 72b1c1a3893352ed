import type { AppModule } from '../module.js';
import { dashboardRoutes } from './dashboard.routes.js';

/** The dashboard module's contribution to the app (see modules/module.ts). */
export const dashboardModule: AppModule = {
  name: 'dashboard',
  routes: (deps) => [dashboardRoutes(deps)],
};
