import type { AppModule } from '../app-module.js';
import './auth.events.js';
import { registerAuthRealtime } from './auth.realtime.js';
import { authRoutes } from './auth.routes.js';
import { PasswordResetSchema } from './password-reset.entity.js';
import { passwordResetRoutes } from './password-reset.routes.js';
import { RateLimitSchema } from './rate-limit.entity.js';
import { SessionSchema } from './session.entity.js';

/** The auth module's contribution to the app (see modules/app-module.ts). */
export const authModule: AppModule = {
  name: 'auth',
  entities: [RateLimitSchema, SessionSchema, PasswordResetSchema],
  routes: (deps) => [authRoutes(deps), passwordResetRoutes(deps)],
  realtime: registerAuthRealtime,
};
