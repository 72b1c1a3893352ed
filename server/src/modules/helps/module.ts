import type { AppModule } from '../app-module.js';
import { HelpSchema } from './help.entity.js';
import { helpsRoutes } from './helps.routes.js';

/** The helps module's contribution to the app (see modules/app-module.ts). */
export const helpsModule: AppModule = {
  name: 'helps',
  entities: [HelpSchema],
  routes: (deps) => [helpsRoutes(deps)],
};
