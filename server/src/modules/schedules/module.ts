import type { AppModule } from '../app-module.js';
import './schedules.events.js';
import { registerSchedulesRealtime } from './schedules.realtime.js';
import { ScheduleSchema } from './schedule.entity.js';
import { schedulesRoutes } from './schedules.routes.js';
import { registerScheduleJobs } from './schedules.sender.js';

/** The schedules module's contribution to the app (see modules/app-module.ts). */
export const schedulesModule: AppModule = {
  name: 'schedules',
  entities: [ScheduleSchema],
  routes: (deps) => [schedulesRoutes(deps)],
  jobs: (registry, ctx) => registerScheduleJobs(registry, ctx.pipeline),
  realtime: registerSchedulesRealtime,
};
