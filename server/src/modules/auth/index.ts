import type { AppModule } from '../module.js';
import './auth.events.js';
import { registerAuthRealtime } from './auth.realtime.js';
import { authRoutes } from './auth.routes.js';
import { PasswordResetSchema } from './password-reset.entity.js';
import { passwordResetRoutes } from './password-reset.routes.js';
import { RateLimitSchema } from './rate-limit.entity.js';
import { SessionSchema } from './session.entity.js';

/** The auth module's contribution to the app (see modules/module.ts). */
export const authModule: AppModule = {
  name: 'auth',
  entities: [RateLimitSchema, SessionSchema, PasswordResetSchema],
  routes: (deps) => [authRoutes(deps), passwordResetRoutes(deps)],
  realtime: registerAuthRealtime,
};

// What other modules may use of this one (they import it only from here).
export { assertCompanyUsable, authenticate, revokeSessions, todayIn } from './auth.service.js';
export { hashPassword } from './passwords.js';
export { hitRateLimit } from './rate-limit.js';
