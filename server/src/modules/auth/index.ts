// What other modules may use of this one (they import it only from here; its routes, jobs and
// listeners are in module.ts, which only the app composes).
export { authenticate, revokeSessions } from './auth.service.js';
export { assertCompanyUsable, liveSessions, todayIn } from './sessions.js';
export { assertPasswordAllowed, hashNewPassword, hashPassword } from './passwords.js';
export { hitRateLimit, takeRateLimit, type RateLimitState } from './rate-limit.js';
