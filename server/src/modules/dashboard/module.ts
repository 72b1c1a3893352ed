import type { AppModule } from '../app-module.js';
import { dashboardRoutes } from './dashboard.routes.js';

/** The dashboard module's contribution to the app (see modules/app-module.ts). */
export const dashboardModule: AppModule = {
  name: 'dashboard',
  routes: (deps) => [dashboardRoutes(deps)],
};
