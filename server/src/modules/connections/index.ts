// What other modules may use of this one (they import it only from here; its routes, jobs and
// listeners are in module.ts, which only the app composes).
export { connectionOfToken, hashToken, presentSession } from './connections.service.js';
