import type { AppModule } from '../app-module.js';
import './users.events.js';
import { registerUsersRealtime } from './users.realtime.js';
import { registerPresenceJobs } from './presence.js';
import { UserSchema } from './user.entity.js';
import { usersRoutes } from './users.routes.js';

/** The users module's contribution to the app (see modules/app-module.ts). */
export const usersModule: AppModule = {
  name: 'users',
  entities: [UserSchema],
  routes: (deps) => [usersRoutes(deps)],
  jobs: (registry, ctx) => registerPresenceJobs(registry, ctx.systemEm),
  realtime: registerUsersRealtime,
};
